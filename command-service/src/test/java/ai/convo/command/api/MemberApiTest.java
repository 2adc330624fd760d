package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Project members and their roles over real HTTP and the real security chain: who may grant what, what a non-member
 * sees, and that each change is an event naming who made it.
 */
class MemberApiTest extends PeopleApiSupport {

    record Colleague(String userId, String key) {
    }

    Colleague colleague() {
        String email = "member-" + Ids.newId() + "@example.com";
        String userId = createUser(email, "password-1234", List.of());
        return new Colleague(userId, keyOf(email, "password-1234"));
    }

    String project() {
        return (String) createProject(ADMIN_KEY, "Members " + Ids.newId(), "en-US").get("_id");
    }

    String body(org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec spec) {
        return new String(spec.expectBody().returnResult().getResponseBodyContent(), StandardCharsets.UTF_8)
                .replaceAll("\"(traceId|instance)\":\"[^\"]*\"", "");
    }

    @Test
    void givenANonMember_whenAddressingTheProject_thenTheAnswerIsThatOfAProjectThatDoesNotExist() {
        // given
        Colleague outsider = colleague();
        String projectId = project();
        String missing = Ids.newId();
        long before = eventCount();
        // when
        String existing = body(send("POST", "/v2.0/projects/" + projectId + "/addprojectmember", outsider.key(),
                Map.of("userId", outsider.userId())).expectStatus().isNotFound());
        String absent = body(send("POST", "/v2.0/projects/" + missing + "/addprojectmember", outsider.key(),
                Map.of("userId", outsider.userId())).expectStatus().isNotFound());
        // then
        assertThat(existing.replace(projectId, "ID")).isEqualTo(absent.replace(missing, "ID"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenABasicMember_whenGrantingRoles_thenA403NamesTheRolesThatWouldAllowItAndNothingIsStored() {
        // given
        Colleague member = colleague();
        String projectId = project();
        send("POST", "/v2.0/projects/" + projectId + "/addprojectmember", ADMIN_KEY, Map.of("userId", member.userId()))
                .expectStatus().isOk();
        long before = eventCount();
        // when / then
        send("POST", "/v2.0/projects/" + projectId + "/members/" + member.userId() + "/addroletomember", member.key(),
                Map.of("role", "projectAdmin")).expectStatus().isForbidden()
                .expectBody().jsonPath("$.details.requiredRoles").value(r -> assertThat((List<Object>) r)
                        .containsExactly("memberManager", "projectAdmin"))
                .jsonPath("$.details.heldRoles[0]").isEqualTo("basic");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAMemberManager_whenGrantingAndRevoking_thenEachIsAnEventNamingWhoMadeItAndRevocationActsAtOnce() {
        // given
        Colleague manager = colleague();
        Colleague member = colleague();
        String projectId = project();
        for (Colleague c : List.of(manager, member)) {
            send("POST", "/v2.0/projects/" + projectId + "/addprojectmember", ADMIN_KEY, Map.of("userId", c.userId()))
                    .expectStatus().isOk();
        }
        String members = "/v2.0/projects/" + projectId + "/members/";
        send("POST", members + manager.userId() + "/addroletomember", ADMIN_KEY, Map.of("role", "memberManager"))
                .expectStatus().isOk();
        // when: the manager grants a role
        send("POST", members + member.userId() + "/addroletomember", manager.key(), Map.of("role", "flowEditor"))
                .expectStatus().isOk();
        // then: an event of the member's user, naming the manager
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? "
                        + "AND payload_type LIKE '%MemberRoleAddedEvent' AND position(? IN payload) > 0", Long.class,
                member.userId(), manager.userId().getBytes(StandardCharsets.UTF_8))).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT array_to_string(roles, ',') FROM identity_member WHERE project_id = ? "
                + "AND user_id = ?", String.class, projectId, member.userId())).isEqualTo("basic,flowEditor");
        // when: the administrator revokes the manager's role, the manager's next request is refused
        send("POST", members + manager.userId() + "/removerolefrommember", ADMIN_KEY, Map.of("role", "memberManager"))
                .expectStatus().isOk();
        send("POST", members + member.userId() + "/removerolefrommember", manager.key(), Map.of("role", "flowEditor"))
                .expectStatus().isForbidden();
        // and a removed member cannot tell the project exists
        send("POST", "/v2.0/projects/" + projectId + "/removeprojectmember", ADMIN_KEY,
                Map.of("userId", manager.userId())).expectStatus().isOk();
        send("POST", members + member.userId() + "/removerolefrommember", manager.key(), Map.of("role", "flowEditor"))
                .expectStatus().isNotFound();
    }

    @Test
    void givenTheUsersSide_whenAddingAndRemovingAProject_thenTheSameMembershipEventsUnderTheSameRules() {
        // given: a member manager of A, a basic member of A, and a colleague in nothing
        Colleague manager = colleague();
        Colleague basic = colleague();
        Colleague newcomer = colleague();
        String a = project();
        String b = project();
        for (Colleague c : List.of(manager, basic)) {
            send("POST", "/v2.0/projects/" + a + "/addprojectmember", ADMIN_KEY, Map.of("userId", c.userId()))
                    .expectStatus().isOk();
        }
        send("POST", "/v2.0/projects/" + a + "/members/" + manager.userId() + "/addroletomember", ADMIN_KEY,
                Map.of("role", "memberManager")).expectStatus().isOk();
        String addProject = "/v2.0/users/" + newcomer.userId() + "/addproject";
        long before = eventCount();
        // when / then: what is refused stores nothing
        send("POST", addProject, ADMIN_KEY, Map.of()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.projectId").exists();
        send("POST", addProject, ADMIN_KEY, Map.of("projectId", a, "role", "x")).expectStatus().isBadRequest();
        send("POST", addProject, basic.key(), Map.of("projectId", a)).expectStatus().isForbidden()
                .expectBody().jsonPath("$.details.requiredRoles[0]").isEqualTo("memberManager");
        String missing = Ids.newId();
        assertThat(body(send("POST", addProject, manager.key(), Map.of("projectId", b)).expectStatus().isNotFound())
                .replace(b, "ID")).isEqualTo(body(send("POST", addProject, manager.key(),
                Map.of("projectId", missing)).expectStatus().isNotFound()).replace(missing, "ID"));
        assertThat(eventCount()).isEqualTo(before);
        // when: the manager adds the newcomer from the user's side
        send("POST", addProject, manager.key(), Map.of("projectId", a)).expectStatus().isOk()
                .expectBody().json("{}");
        // then: the event addProjectMember makes, naming the manager; the newcomer is a basic member of A
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ? "
                        + "AND payload_type LIKE '%MemberAddedEvent' AND position(? IN payload) > 0", Long.class,
                newcomer.userId(), manager.userId().getBytes(StandardCharsets.UTF_8))).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT array_to_string(roles, ',') FROM identity_member WHERE project_id = ? "
                + "AND user_id = ?", String.class, a, newcomer.userId())).isEqualTo("basic");
        // when: removed from the user's side, twice (the second changes nothing)
        send("POST", "/v2.0/users/" + newcomer.userId() + "/removeproject", ADMIN_KEY, Map.of("projectId", a))
                .expectStatus().isOk();
        long removed = eventCount();
        send("POST", "/v2.0/users/" + newcomer.userId() + "/removeproject", ADMIN_KEY, Map.of("projectId", a))
                .expectStatus().isOk();
        // then
        assertThat(eventCount()).isEqualTo(removed);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM identity_member WHERE project_id = ? AND user_id = ?",
                Long.class, a, newcomer.userId())).isZero();
    }

    @Test
    void givenAMember_whenLimitedToLocales_thenOnlyLocalesOfTheProjectAreTakenAndNullMeansEvery() {
        // given
        Colleague member = colleague();
        String projectId = project();
        String localeId = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?",
                String.class, projectId);
        send("POST", "/v2.0/projects/" + projectId + "/addprojectmember", ADMIN_KEY, Map.of("userId", member.userId()))
                .expectStatus().isOk();
        String uri = "/v2.0/projects/" + projectId + "/members/" + member.userId();
        long before = eventCount();
        // when / then: a locale of no project, an unknown role, a malformed list
        send("PATCH", uri, ADMIN_KEY, Map.of("allowedLocales", List.of(Ids.newId()))).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.allowedLocales").exists();
        send("PATCH", uri, ADMIN_KEY, Map.of("allowedLocales", "all")).expectStatus().isBadRequest();
        send("POST", uri + "/addroletomember", ADMIN_KEY, Map.of("role", "wizard")).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.role").value(d -> assertThat((String) d).contains("flowEditor"));
        assertThat(eventCount()).isEqualTo(before);
        // when: the client's shape
        send("PATCH", uri, ADMIN_KEY, Map.of("allowedLocales", List.of(Map.of("localeId", localeId))))
                .expectStatus().isOk();
        // then
        assertThat(jdbc.queryForObject("SELECT array_to_string(allowed_locales, ',') FROM identity_member "
                + "WHERE project_id = ? AND user_id = ?", String.class, projectId, member.userId())).isEqualTo(localeId);
        send("PATCH", uri, ADMIN_KEY, java.util.Collections.singletonMap("allowedLocales", null)).expectStatus().isOk();
        assertThat(jdbc.queryForObject("SELECT allowed_locales IS NULL FROM identity_member WHERE project_id = ? "
                + "AND user_id = ?", Boolean.class, projectId, member.userId())).isTrue();
    }

    @Test
    void givenAnotherOrganisationsUserOrProject_whenAddingAMember_thenA404AndNothingIsStored() {
        // given
        String otherKey = otherOrganisationKey("members-" + Ids.newId() + "@example.com");
        String otherProject = (String) createProject(otherKey, "Theirs " + Ids.newId(), "en-US").get("_id");
        Colleague mine = colleague();
        String mineProject = project();
        String theirUser = jdbc.queryForObject("SELECT user_id FROM identity_api_key WHERE organisation_id = "
                + "(SELECT organisation_id FROM cmd_project_lookup WHERE project_id = ?) LIMIT 1", String.class,
                otherProject);
        long before = eventCount();
        // when / then
        send("POST", "/v2.0/projects/" + otherProject + "/addprojectmember", ADMIN_KEY, Map.of("userId", mine.userId()))
                .expectStatus().isNotFound();
        send("POST", "/v2.0/projects/" + mineProject + "/addprojectmember", ADMIN_KEY, Map.of("userId", theirUser))
                .expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
    }
}
