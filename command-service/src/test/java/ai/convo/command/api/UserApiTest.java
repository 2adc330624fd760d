package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Users of an organisation over real HTTP and the real security chain: created by an administrator, never with their
 * password or its hash in the event log, refused at once when disabled or deleted, changes authored.
 */
class UserApiTest extends PeopleApiSupport {

    long stored(String text) {
        Long count = jdbc.queryForObject("SELECT (SELECT count(*) FROM domain_event_entry WHERE position(? IN payload) > 0)"
                        + " + (SELECT count(*) FROM snapshot_entry WHERE position(? IN payload) > 0)", Long.class,
                text.getBytes(StandardCharsets.UTF_8), text.getBytes(StandardCharsets.UTF_8));
        return count == null ? 0 : count;
    }

    @Test
    void givenAnAdministrator_whenCreatingAUserWithAPassword_thenTheUserSignsInAndNeitherPasswordNorHashIsLogged() {
        // given
        String email = "colleague-" + Ids.newId() + "@example.com";
        String password = "pw-" + Ids.newId();
        // when
        String userId = createUser(email, password, List.of());
        // then: the user signs in with it
        String key = keyOf(email, password);
        assertThat(key).isNotBlank();
        String hash = jdbc.queryForObject("SELECT password_hash FROM identity_password WHERE user_id = ?",
                String.class, userId);
        assertThat(hash).startsWith("$2").doesNotContain(password);
        assertThat(stored(password)).isZero();
        assertThat(stored(hash)).isZero();
        // and the creation is an event authored by the administrator
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type LIKE '%UserCreatedEvent' AND position(? IN payload) > 0", Long.class, userId,
                adminUserId().getBytes(StandardCharsets.UTF_8))).isEqualTo(1);
    }

    @Test
    void givenAUserWithoutUserManager_whenCreatingAUser_thenA403NamesTheRoleAndNothingIsStored() {
        // given
        String email = "plain-" + Ids.newId() + "@example.com";
        createUser(email, "password-1234", List.of());
        String key = keyOf(email, "password-1234");
        long before = eventCount();
        // when / then
        send("POST", "/v2.0/users", key, Map.of("email", "x-" + Ids.newId() + "@example.com"))
                .expectStatus().isForbidden()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("userManager"))
                .jsonPath("$.details.requiredRoles[0]").isEqualTo("userManager");
        send("POST", "/v2.0/users/" + adminUserId() + "/addroletouser", key, Map.of("role", "admin"))
                .expectStatus().isForbidden();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAUserManager_whenManagingUsers_thenAllowedButGrantingRolesStaysWithAdministrators() {
        // given
        String email = "manager-" + Ids.newId() + "@example.com";
        createUser(email, "password-1234", List.of("userManager"));
        String key = keyOf(email, "password-1234");
        // when
        send("POST", "/v2.0/users", key, Map.of("email", "made-" + Ids.newId() + "@example.com"))
                .expectStatus().isCreated();
        // then
        send("POST", "/v2.0/users/" + adminUserId() + "/removerolefromuser", key, Map.of("role", "admin"))
                .expectStatus().isForbidden();
    }

    @Test
    void givenAUserWithAKey_whenDisabled_thenKeyPasswordAndTokenStopWorkingAtOnceAndWorkAgainWhenEnabled() {
        // given
        String email = "disabled-" + Ids.newId() + "@example.com";
        String userId = createUser(email, "password-1234", List.of());
        String key = keyOf(email, "password-1234");
        send("POST", "/v2.0/users/me/apikeys", key, null).expectStatus().isCreated();
        // when
        send("PATCH", "/v2.0/users/" + userId, ADMIN_KEY, Map.of("disabled", true)).expectStatus().isOk();
        // then: key, password and access token alike
        send("POST", "/v2.0/users/me/apikeys", key, null).expectStatus().isUnauthorized();
        send("POST", "/v2.0/users/me/apikeys", basic(email, "password-1234"), null).expectStatus().isUnauthorized();
        http.post().uri("/v2.0/users/me/apikeys").header("Authorization", "Bearer "
                + ai.convo.testing.TestTokens.bearer(userId)).exchange().expectStatus().isUnauthorized();
        send("PATCH", "/v2.0/users/" + userId, ADMIN_KEY, Map.of("disabled", false)).expectStatus().isOk();
        http.post().uri("/v2.0/users/me/apikeys").header("Authorization", "Bearer "
                + ai.convo.testing.TestTokens.bearer(userId)).exchange().expectStatus().isCreated();
        send("POST", "/v2.0/users/me/apikeys", key, null).expectStatus().isCreated();
    }

    @Test
    void givenAUser_whenDeletedOrDeletingThemselves_thenTheirKeysStopWorkingAndTheyAreGone() {
        // given
        String first = "deleted-" + Ids.newId() + "@example.com";
        String firstId = createUser(first, "password-1234", List.of());
        String firstKey = keyOf(first, "password-1234");
        String second = "leaving-" + Ids.newId() + "@example.com";
        createUser(second, "password-1234", List.of());
        String secondKey = keyOf(second, "password-1234");
        // when
        send("DELETE", "/v2.0/users/" + firstId, ADMIN_KEY, null).expectStatus().isNoContent();
        send("DELETE", "/v2.0/users/me", secondKey, null).expectStatus().isNoContent();
        // then
        send("POST", "/v2.0/users/me/apikeys", firstKey, null).expectStatus().isUnauthorized();
        send("POST", "/v2.0/users/me/apikeys", secondKey, null).expectStatus().isUnauthorized();
        send("PATCH", "/v2.0/users/" + firstId, ADMIN_KEY, Map.of("name", "Back")).expectStatus().isNotFound();
    }

    @Test
    void givenTheOnlyAdministrator_whenDeletingOrDisablingThemselves_thenRefusedWithAConflict() {
        // given: a second organisation whose only administrator is its first user
        String email = "only-" + Ids.newId() + "@example.com";
        String key = otherOrganisationKey(email);
        long before = eventCount();
        // when / then
        send("DELETE", "/v2.0/users/me", key, null).expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("only active administrator"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAUser_whenChangingTheirPassword_thenTheOldOneIsCheckedAndOnlyTheNewOneWorks() {
        // given
        String email = "changer-" + Ids.newId() + "@example.com";
        createUser(email, "password-old1", List.of());
        String key = keyOf(email, "password-old1");
        // when: wrong current password
        send("POST", "/v2.0/users/me/changepassword", key, Map.of("oldPassword", "nope-nope", "newPassword",
                "password-new1")).expectStatus().isBadRequest().expectBody().jsonPath("$.details.oldPassword").exists();
        // when: right one
        send("POST", "/v2.0/users/me/changepassword", key, Map.of("oldPassword", "password-old1", "newPassword",
                "password-new1")).expectStatus().isOk();
        // then
        send("POST", "/v2.0/users/me/apikeys", basic(email, "password-old1"), null).expectStatus().isUnauthorized();
        send("POST", "/v2.0/users/me/apikeys", basic(email, "password-new1"), null).expectStatus().isCreated();
        assertThat(stored("password-new1")).isZero();
    }

    @Test
    void givenAnAdministrator_whenUpdatingAndGrantingRoles_thenUnknownRolesAndEmailsAreA400() {
        // given
        String userId = createUser("roles-" + Ids.newId() + "@example.com", "password-1234", List.of());
        long before = eventCount();
        // when / then
        send("POST", "/v2.0/users/" + userId + "/addroletouser", ADMIN_KEY, Map.of("role", "wizard"))
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.role").exists();
        send("PATCH", "/v2.0/users/" + userId, ADMIN_KEY, Map.of("email", "not-an-email"))
                .expectStatus().isBadRequest();
        send("POST", "/v2.0/users", ADMIN_KEY, Map.of("email", "r-" + Ids.newId() + "@example.com",
                "roles", List.of("admin", "wizard"))).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.roles").exists();
        assertThat(eventCount()).isEqualTo(before);
        send("POST", "/v2.0/users/" + userId + "/addroletouser", ADMIN_KEY, Map.of("role", "projectManager"))
                .expectStatus().isOk();
        assertThat(jdbc.queryForObject("SELECT array_to_string(roles, ',') FROM identity_user WHERE id = ?",
                String.class, userId)).isEqualTo("projectManager");
    }
}
