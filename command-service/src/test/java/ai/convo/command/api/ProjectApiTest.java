package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

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
}
