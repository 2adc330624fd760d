package ai.convo.query.api;

import static ai.convo.query.api.ListPages.ids;
import static ai.convo.query.api.ListPages.items;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.snapshot.SnapshotCounts;
import ai.convo.contract.snapshot.SnapshotCreatedEvent;
import ai.convo.contract.snapshot.SnapshotDeletedEvent;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.snapshot.SnapshotResource;
import ai.convo.contract.snapshot.SnapshotResourcesListedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * GET /v2.0/snapshots?projectId= and GET /v2.0/snapshots/{id}: created snapshots only (pending and deleted ones
 * never show), the record's fields, list parameters, media types, tenancy.
 */
class SnapshotListTest extends QueryTestBase {

    private static final SnapshotCounts COUNTS = new SnapshotCounts(1, 0, 0, 1, 0, 2, 5);
    private static final String HASH = "ab".repeat(32);

    private Caller caller;
    private Project project;
    private final List<String> snapshots = new ArrayList<>();
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Snapshots", 1000);
        String registry = "snapshots-" + project.id();
        String[] names = {"delta", "alpha", "charlie", "bravo"};
        for (int i = 0; i < names.length; i++) {
            String id = Ids.newId();
            snapshots.add(id);
            append(registry, new SnapshotRequestedEvent(id, project.id(), caller.organisationId(), Ids.newId(),
                    names[i], "about " + names[i], caller.userId(), 2000 + i));
            position = append(registry, new SnapshotCreatedEvent(id, project.id(), caller.organisationId(), names[i],
                    "about " + names[i], HASH, COUNTS, caller.userId(), 2000 + i));
        }
        // one pending (never created) and one deleted: neither is listed
        append(registry, new SnapshotRequestedEvent(Ids.newId(), project.id(), caller.organisationId(), Ids.newId(),
                "pending", "", caller.userId(), 3000));
        position = append(registry, new SnapshotDeletedEvent(snapshots.remove(3), project.id(), caller.organisationId(),
                caller.userId(), 3001));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(String uri, String key) {
        return http.get().uri(uri).header("X-API-Key", key).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody();
    }

    @Test
    void givenSnapshots_whenListedByProject_thenTheCreatedOnesInCreationOrderWithTheirFields() {
        Map<String, Object> page = get("/v2.0/snapshots?projectId=" + project.id(), caller.apiKey());
        assertThat(page).containsEntry("total", 3);
        assertThat(ids(page)).containsExactlyElementsOf(snapshots);
        Map<String, Object> first = items(page).get(0);
        assertThat(first.keySet()).containsExactly("_id", "name", "description", "hash", "projectReference",
                "createdAt", "createdBy");
        assertThat(first).containsEntry("name", "delta").containsEntry("description", "about delta")
                .containsEntry("hash", HASH).containsEntry("projectReference", project.id())
                .containsEntry("createdAt", 2000).containsEntry("createdBy", caller.userId());
    }

    @Test
    void givenSnapshots_whenSortedByNameAndPaged_thenKeysetPagesInNameOrder() {
        Map<String, Object> page = get("/v2.0/snapshots?projectId=" + project.id() + "&sort=name:asc&limit=2",
                caller.apiKey());
        assertThat(items(page)).extracting(i -> i.get("name")).containsExactly("alpha", "charlie");
        Map<String, Object> next = get("/v2.0/snapshots?projectId=" + project.id() + "&sort=name:asc&limit=2&next="
                + page.get("nextCursor"), caller.apiKey());
        assertThat(items(next)).extracting(i -> i.get("name")).containsExactly("delta");
        assertThat(items(get("/v2.0/snapshots?projectId=" + project.id() + "&filter=ALP", caller.apiKey())))
                .hasSize(1);
    }

    @Test
    void givenASnapshot_whenReadById_thenItsRecord_andADeletedOneIs404() {
        Map<String, Object> one = get("/v2.0/snapshots/" + snapshots.get(1), caller.apiKey());
        assertThat(one).containsEntry("_id", snapshots.get(1)).containsEntry("name", "alpha");
        http.get().uri("/v2.0/snapshots/" + Ids.newId()).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("1000");
        http.get().uri("/v2.0/snapshots/NOT-AN-ID").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest();
    }

    @Test
    void givenAnotherOrganisation_whenItReadsOrListsOurSnapshots_then404() {
        Caller stranger = newOrganisation();
        http.get().uri("/v2.0/snapshots/" + snapshots.get(0)).header("X-API-Key", stranger.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/snapshots?projectId=" + project.id()).header("X-API-Key", stranger.apiKey())
                .exchange().expectStatus().isNotFound();
        assertThat(get("/v2.0/snapshots", stranger.apiKey())).containsEntry("total", 0);
    }

    @Test
    void givenBadParametersOrNoCredentials_thenClear4xx() {
        http.get().uri("/v2.0/snapshots?projectId=bad").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.projectId").exists();
        http.get().uri("/v2.0/snapshots?projectId=" + project.id() + "&sort=hash:asc")
                .header("X-API-Key", caller.apiKey()).exchange().expectStatus().isBadRequest();
        http.get().uri("/v2.0/snapshots?projectId=" + project.id()).exchange().expectStatus().isUnauthorized();
        http.get().uri("/v2.0/snapshots?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .accept(MediaType.IMAGE_PNG).exchange().expectStatus().isEqualTo(406);
    }

    @Test
    void givenSnapshots_whenListedAsCsvOrXml_thenThoseMediaTypes() {
        http.get().uri("/v2.0/snapshots?projectId=" + project.id()).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith("text/csv");
        http.get().uri("/v2.0/snapshots/" + snapshots.get(0)).header("X-API-Key", caller.apiKey())
                .accept(MediaType.APPLICATION_XML).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_XML);
    }

    @Test
    void givenASnapshotWithListedResources_whenItsResourcesAreListedByType_thenThoseOfTheTypeInNameOrder() {
        // given
        String snapshot = snapshots.get(0);
        String flowA = Ids.newId();
        String flowB = Ids.newId();
        String state = Ids.newId();
        position = append("snapshots-" + project.id(), new SnapshotResourcesListedEvent(snapshot, project.id(),
                caller.organisationId(), List.of(new SnapshotResource("flow", flowB, "ref-b", "Main"),
                        new SnapshotResource("flow", flowA, "ref-a", "Checkout"),
                        new SnapshotResource("flowState", state, "ref-s", "Start"),
                        new SnapshotResource("locale", project.primaryLocaleId(), "ref-l", "en-US")), 2000));
        // when
        Map<String, Object> flows = get("/v2.0/snapshots/" + snapshot + "/resources?resourceType=flow&sort=name:asc",
                caller.apiKey());
        // then
        assertThat(ids(flows)).containsExactly(flowA, flowB);
        assertThat(items(flows).get(0)).containsEntry("referenceId", "ref-a").containsEntry("resourceType", "flow")
                .containsEntry("name", "Checkout").containsEntry("createdAt", 2000)
                .containsEntry("createdBy", caller.userId());
        assertThat(ids(get("/v2.0/snapshots/" + snapshot + "/resources?resourceType=flowState", caller.apiKey())))
                .containsExactly(state);
        assertThat(get("/v2.0/snapshots/" + snapshot + "/resources?resourceType=nluconnector", caller.apiKey()))
                .containsEntry("total", 0);
        // and the usual refusals
        http.get().uri("/v2.0/snapshots/" + snapshot + "/resources").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.details.resourceType").exists();
        http.get().uri("/v2.0/snapshots/" + snapshot + "/resources?resourceType=flow")
                .header("X-API-Key", newOrganisation().apiKey()).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/snapshots/" + Ids.newId() + "/resources?resourceType=flow")
                .header("X-API-Key", caller.apiKey()).exchange().expectStatus().isNotFound();
    }
}
