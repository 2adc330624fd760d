package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Users of an organisation and members of a project as the client reads them, with the access policy applied. */
class PeopleQueryTest extends QueryTestBase {

    Caller member(Caller org, String... roles) {
        Caller user = colleague(org, "MEMBER");
        jdbc.update("UPDATE identity_user SET name = 'Colleague', roles = ? WHERE id = ?", roles, user.userId());
        return user;
    }

    void join(Caller user, String projectId, String... roles) {
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                + "VALUES (?, ?, ?, ?, ?, 0)", projectId, user.userId(), user.organisationId(), roles, user.userId());
    }

    String body(org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec spec) {
        return new String(spec.expectBody().returnResult().getResponseBodyContent(), StandardCharsets.UTF_8)
                .replaceAll("\"(traceId|instance)\":\"[^\"]*\"", "");
    }

    @Test
    void givenUsersOfTwoOrganisations_whenListed_thenOnlyTheCallersActiveOnesWithoutCredentials() {
        // given
        Caller admin = newOrganisation();
        Caller colleague = member(admin, "projectManager");
        Caller gone = member(admin);
        jdbc.update("UPDATE identity_user SET deleted_at = 1 WHERE id = ?", gone.userId());
        Caller stranger = newOrganisation();
        // when
        String list = new String(http.get().uri("/v2.0/users").header("X-API-Key", admin.apiKey()).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(2)
                .returnResult().getResponseBodyContent(), StandardCharsets.UTF_8);
        // then
        assertThat(list).contains(colleague.userId(), admin.userId(), "projectManager", "admin")
                .doesNotContain(gone.userId(), stranger.userId(), "password", "$2a$");
        http.get().uri("/v2.0/users/{id}", stranger.userId()).header("X-API-Key", admin.apiKey()).exchange()
                .expectStatus().isNotFound();
        http.get().uri("/v2.0/users/{id}", gone.userId()).header("X-API-Key", admin.apiKey()).exchange()
                .expectStatus().isNotFound();
    }

    @Test
    void givenAUserWithoutUserRoles_whenReadingUsers_thenOnlyTheirOwnRecordAndA403ForTheList() {
        // given
        Caller admin = newOrganisation();
        Caller plain = member(admin);
        Caller viewer = member(admin, "userDetailsViewer");
        // when / then
        http.get().uri("/v2.0/users/me").header("X-API-Key", plain.apiKey()).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$._id").isEqualTo(plain.userId()).jsonPath("$.name").isEqualTo("Colleague");
        http.get().uri("/v2.0/users").header("X-API-Key", plain.apiKey()).exchange().expectStatus().isForbidden()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("userDetailsViewer"));
        http.get().uri("/v2.0/users").header("X-API-Key", viewer.apiKey()).exchange().expectStatus().isOk();
        http.get().uri("/v2.0/users/{id}", admin.userId()).header("X-API-Key", viewer.apiKey()).exchange()
                .expectStatus().isOk();
    }

    @Test
    void givenAProjectWithMembers_whenListedByAMemberAndByANonMember_thenMembersSeeThemAndOthersA404() {
        // given
        Caller admin = newOrganisation();
        Project project = project(admin, "Members", 1);
        Caller editor = member(admin);
        join(editor, project.id(), "basic", "flowEditor");
        jdbc.update("UPDATE identity_member SET allowed_locales = ? WHERE user_id = ?",
                new String[] {project.primaryLocaleId()}, editor.userId());
        Caller outsider = member(admin);
        String missing = Ids.newId();
        // when / then: a member lists and reads
        http.get().uri("/v2.0/projects/{p}/members", project.id()).header("X-API-Key", editor.apiKey()).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(1)
                .jsonPath("$.items[0]._id").isEqualTo(editor.userId())
                .jsonPath("$.items[0].id").isEqualTo(editor.userId() + "@example.com")
                .jsonPath("$.items[0].roles[1]").isEqualTo("flowEditor");
        http.get().uri("/v2.0/projects/{p}/members/{u}", project.id(), editor.userId())
                .header("X-API-Key", admin.apiKey()).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.allowedLocales[0].localeId").isEqualTo(project.primaryLocaleId())
                .jsonPath("$.disabled").isEqualTo(false);
        // and a non-member cannot tell the project from one that does not exist
        String existing = body(http.get().uri("/v2.0/projects/{p}/members", project.id())
                .header("X-API-Key", outsider.apiKey()).exchange().expectStatus().isNotFound());
        String absent = body(http.get().uri("/v2.0/projects/{p}/members", missing)
                .header("X-API-Key", outsider.apiKey()).exchange().expectStatus().isNotFound());
        assertThat(existing.replace(project.id(), "ID")).isEqualTo(absent.replace(missing, "ID"));
        // nor can another organisation's administrator
        Caller stranger = newOrganisation();
        String foreign = body(http.get().uri("/v2.0/projects/{p}/members", project.id())
                .header("X-API-Key", stranger.apiKey()).exchange().expectStatus().isNotFound());
        String foreignMissing = body(http.get().uri("/v2.0/projects/{p}/members", missing)
                .header("X-API-Key", stranger.apiKey()).exchange().expectStatus().isNotFound());
        assertThat(foreign.replace(project.id(), "ID")).isEqualTo(foreignMissing.replace(missing, "ID"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenRolesGrantedAndAUserCreated_whenTheAuditTrailIsRead_thenItNamesWhoGrantedWhatAndNoCredential() {
        // given: the events the command service appends for addRoleToMember and createUser
        Caller admin = newOrganisation();
        Project project = project(admin, "Audited", 1);
        Caller member = member(admin);
        String created = Ids.newId();
        long position = as(admin, () -> {
            append(member.userId(), new ai.convo.contract.member.MemberRoleAddedEvent(member.userId(),
                    admin.organisationId(), project.id(), "flowEditor", admin.userId(), 2));
            return append(created, new ai.convo.contract.identity.UserCreatedEvent(created, admin.organisationId(),
                    "new@example.com", "New", java.util.List.of("userManager"), admin.userId(), 3));
        });
        // when
        java.util.Map<String, Object> page = http.get().uri("/v2.0/auditevents?limit=100")
                .header("X-API-Key", admin.apiKey()).header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk()
                .expectBody(java.util.Map.class).returnResult().getResponseBody();
        java.util.List<java.util.Map<String, Object>> items = ListPages.items(page);
        // then
        java.util.Map<String, Object> grant = items.stream().filter(e -> "action".equals(e.get("type"))
                && String.valueOf(e.get("chain")).contains(member.userId())).findFirst().orElseThrow();
        assertThat(grant.get("user")).isEqualTo(admin.userId() + "@example.com");
        assertThat(grant.get("projectReference")).isEqualTo(project.id());
        assertThat((java.util.Map<String, Object>) grant.get("payload")).containsEntry("role", "flowEditor");
        java.util.Map<String, Object> user = items.stream().filter(e -> "createUser".equals(e.get("actionType")))
                .findFirst().orElseThrow();
        assertThat(user.get("user")).isEqualTo(admin.userId() + "@example.com");
        assertThat(user.toString()).doesNotContain("password", "Hash");
    }
}
