package ai.convo.query.api;

import ai.convo.contract.project.ProjectUpdatedEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A project's reads follow its PATCH (updateProject): GET /v2.0/projects/{id} and the project list. */
class ProjectReadTest extends QueryTestBase {

    @Test
    void givenARenamedAndRecolouredProject_whenRead_thenTheNewNameColorAndLastChangeInItsRecordAndTheList() {
        // given
        Caller caller = newOrganisation();
        Caller editor = colleague(caller);
        Project project = project(caller, "Before", 1000);
        long position = append(project.id(), new ProjectUpdatedEvent(project.id(), caller.organisationId(),
                List.of("name", "color"), "After", "teal", editor.userId(), 2000));
        // when / then
        http.get().uri("/v2.0/projects/{id}", project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.name").isEqualTo("After")
                .jsonPath("$.color").isEqualTo("teal")
                .jsonPath("$.createdAt").isEqualTo(1000)
                .jsonPath("$.lastChanged").isEqualTo(2000)
                .jsonPath("$.lastChangedBy").isEqualTo(editor.userId())
                .jsonPath("$.primaryLocaleReference").isEqualTo(project.primaryLocaleId());
        http.get().uri("/v2.0/projects?filter=after").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(1).jsonPath("$.items[0]._id").isEqualTo(project.id());
        http.get().uri("/v2.0/projects/{id}", project.id()).header("X-API-Key", newOrganisation().apiKey()).exchange()
                .expectStatus().isNotFound();
    }
}
