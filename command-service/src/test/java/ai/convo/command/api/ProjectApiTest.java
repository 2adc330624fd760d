package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

class ProjectApiTest extends ApiTestBase {

    @Test
    void createAnswers201WithTheRecordLocationAndEventPosition() {
        var result = http.post().uri("/v2.0/projects")
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Support bot", "locale", "de-DE", "color", "#ff0000"))
                .exchange()
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().exists("X-Event-Position")
                .expectBody()
                .jsonPath("$.name").isEqualTo("Support bot")
                .jsonPath("$.color").isEqualTo("#ff0000")
                .jsonPath("$._id").value(id -> assertThat((String) id).matches("^[a-z0-9]{24}$"))
                .jsonPath("$.primaryLocaleReference").value(id -> assertThat((String) id).matches("^[a-z0-9]{24}$"))
                .jsonPath("$.createdBy").isEqualTo(adminUserId())
                .returnResult();
        String location = result.getResponseHeaders().getLocation().toString();
        assertThat(location).startsWith("/new/v2.0/projects/");
    }

    @Test
    void createRefusesAnUnknownLanguageListingTheAllowedOnes() {
        long before = eventCount();
        http.post().uri("/v2.0/projects")
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "X", "locale", "xx-XX"))
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("1000")
                .jsonPath("$.details.locale").value(text -> assertThat((String) text).contains("en-US", "ta-IN", "'xx-XX'"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void createRequiresAName() {
        http.post().uri("/v2.0/projects")
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("locale", "en-US", "name", "   "))
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.name").exists();
    }

    @Test
    void deleteAnswers204ThenTheProjectIsGone() {
        String projectId = (String) createProject(ADMIN_KEY, "Temp", "en-US").get("_id");
        http.delete().uri("/v2.0/projects/{id}", projectId).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNoContent().expectHeader().exists("X-Event-Position");
        http.delete().uri("/v2.0/projects/{id}", projectId).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNotFound().expectBody().jsonPath("$.logLevel").isEqualTo("info");
    }

    @Test
    void deleteRefusesAnIdThatIsNotAnId() {
        http.delete().uri("/v2.0/projects/{id}", "not-an-id").header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(text -> assertThat((String) text).contains("projectId"));
    }

    @Test
    void anotherOrganisationCannotDeleteAProject() {
        String projectId = (String) createProject(ADMIN_KEY, "Mine", "en-US").get("_id");
        String otherKey = otherOrganisationKey("project-thief@example.com");
        http.delete().uri("/v2.0/projects/{id}", projectId).header("X-API-Key", otherKey)
                .exchange().expectStatus().isNotFound();
        // still there for its owner
        http.delete().uri("/v2.0/projects/{id}", projectId).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNoContent();
    }

    // ---- updateProject (PATCH /v2.0/projects/{id})

    private WebTestClient.ResponseSpec patch(String key, String projectId, Object body) {
        return http.patch().uri("/v2.0/projects/{id}", projectId).header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void givenAProject_whenPatchingNameAndColor_then200WithTheFullUpdatedProjectAndItsEventPosition() {
        // given
        Map<String, Object> project = createProject(ADMIN_KEY, "Before " + UUID.randomUUID(), "en-US");
        String projectId = (String) project.get("_id");
        // when
        patch(ADMIN_KEY, projectId, Map.of("name", "After", "color", "blue"))
                // then
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody()
                .jsonPath("$._id").isEqualTo(projectId)
                .jsonPath("$.name").isEqualTo("After")
                .jsonPath("$.color").isEqualTo("blue")
                .jsonPath("$.primaryLocaleReference").isEqualTo(project.get("primaryLocaleReference"))
                .jsonPath("$.createdAt").isEqualTo(project.get("createdAt"))
                .jsonPath("$.lastChangedBy").isEqualTo(adminUserId());
    }

    @Test
    void givenAProject_whenThePatchHasAnUnknownFieldOrABlankName_then400NamingItAndNothingIsStored() {
        // given
        String projectId = (String) createProject(ADMIN_KEY, "Strict " + UUID.randomUUID(), "en-US").get("_id");
        long before = eventCount();
        // when / then: a field of the client's IProject that this server does not keep
        patch(ADMIN_KEY, projectId, Map.of("name", "X", "liveAgentDefaultInbox", 3))
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.liveAgentDefaultInbox").exists();
        patch(ADMIN_KEY, projectId, Map.of("name", "  "))
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.name").exists();
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAProjectOfAnotherOrganisation_whenPatched_then404AndItKeepsItsName() {
        // given
        String name = "Theirs " + UUID.randomUUID();
        String projectId = (String) createProject(ADMIN_KEY, name, "en-US").get("_id");
        String otherKey = otherOrganisationKey("renamer-" + UUID.randomUUID() + "@example.com");
        long before = eventCount();
        // when / then
        patch(otherKey, projectId, Map.of("name", "Hijacked")).expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
        patch(ADMIN_KEY, projectId, Map.of()).expectStatus().isOk().expectBody().jsonPath("$.name").isEqualTo(name);
    }

    // ---- validateProjectName (POST /v2.0/projects/validateprojectname)

    private WebTestClient.ResponseSpec validate(String key, Object body) {
        return http.post().uri("/v2.0/projects/validateprojectname").header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void givenAFreeName_whenValidated_then200WithAnEmptyObjectAndNothingStored() {
        // given
        long before = eventCount();
        // when / then
        validate(ADMIN_KEY, Map.of("name", "Nobody has this " + UUID.randomUUID()))
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().json("{}", true);
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenAProjectNamedSo_whenTheNameIsValidatedInAnotherCase_then409NamingTheProject() {
        // given
        String name = "Taken " + UUID.randomUUID();
        String projectId = (String) createProject(ADMIN_KEY, name, "en-US").get("_id");
        // when / then
        validate(ADMIN_KEY, Map.of("name", name.toUpperCase(java.util.Locale.ROOT)))
                .expectStatus().isEqualTo(409)
                .expectBody()
                .jsonPath("$.details.projectId").isEqualTo(projectId)
                .jsonPath("$.detail").value(text -> assertThat((String) text).contains(projectId));
    }

    @Test
    void givenARenamedProject_whenNamesAreValidated_thenTheOldNameIsFreeAndTheNewOneTaken() {
        // given
        String old = "Old " + UUID.randomUUID();
        String renamed = "New " + UUID.randomUUID();
        String projectId = (String) createProject(ADMIN_KEY, old, "en-US").get("_id");
        patch(ADMIN_KEY, projectId, Map.of("name", renamed)).expectStatus().isOk();
        // when / then
        validate(ADMIN_KEY, Map.of("name", old)).expectStatus().isOk();
        validate(ADMIN_KEY, Map.of("name", renamed)).expectStatus().isEqualTo(409);
    }

    @Test
    void givenAProjectOfAnotherOrganisation_whenItsNameIsValidated_thenItIsFreeHere() {
        // given
        String name = "Elsewhere " + UUID.randomUUID();
        createProject(ADMIN_KEY, name, "en-US");
        String otherKey = otherOrganisationKey("prober-" + UUID.randomUUID() + "@example.com");
        // when / then: another organisation learns nothing about this one's projects
        validate(otherKey, Map.of("name", name)).expectStatus().isOk();
    }

    @Test
    void givenABlankMissingOrTooLongName_whenValidated_then400NamingTheField() {
        // given / when / then
        validate(ADMIN_KEY, Map.of("name", " ")).expectStatus().isBadRequest().expectBody().jsonPath("$.details.name").exists();
        validate(ADMIN_KEY, Map.of()).expectStatus().isBadRequest().expectBody().jsonPath("$.details.name").exists();
        validate(ADMIN_KEY, Map.of("name", "n".repeat(201))).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.name").exists();
        validate(ADMIN_KEY, Map.of("name", "ok", "color", "red")).expectStatus().isBadRequest();
    }
}
