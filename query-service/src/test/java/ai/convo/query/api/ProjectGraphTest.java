package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.snapshot.SnapshotCounts;
import ai.convo.contract.snapshot.SnapshotCreatedEvent;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.snapshot.SnapshotResource;
import ai.convo.contract.snapshot.SnapshotResourcesListedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * The official client's graphProject (GET /v2.0/projects/{projectId}/graph): every resource of the project with
 * its properties and the edges between them, from one consistent read; dependencies and snapshots on request;
 * a project of another organisation is missing.
 */
class ProjectGraphTest extends IntentQuerySupport {

    private Caller caller;
    private Project project;
    private String flowId;
    private String parentIntent;
    private String childIntent;
    private String stateId;
    private String fillerId;
    private String storeId;
    private String sourceId;
    private String chunkId;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        project = project(caller, "Graph", 1000);
        String org = caller.organisationId();
        flowId = newFlow(caller, project.id(), 1001);
        parentIntent = Ids.newId();
        childIntent = Ids.newId();
        // the child first: its edge still names its parent's referenceId
        intent(caller, project.id(), flowId, childIntent, "child", parentIntent, 1002);
        intent(caller, project.id(), flowId, parentIntent, "parent", null, 1003);
        stateId = Ids.newId();
        append(flowId, new StateCreatedEvent(flowId, project.id(), org, stateId, UUID.randomUUID().toString(),
                "Start", "default", true, List.of(parentIntent), caller.userId(), 1004));
        fillerId = Ids.newId();
        append(fillerId, new SlotFillerCreatedEvent(fillerId, flowId, project.id(), org, UUID.randomUUID().toString(),
                "Zip", "regex", "^[0-9]{5}$", null, false, false, true, "zip", false, "", false, false, "", "",
                caller.userId(), 1005));
        String functionId = Ids.newId();
        append(functionId, new FunctionCreatedEvent(functionId, project.id(), org, UUID.randomUUID().toString(),
                "Mail", "return 1;", false, caller.userId(), 1006));
        String tokenId = Ids.newId();
        append(tokenId, new TokenCreatedEvent(tokenId, project.id(), org, UUID.randomUUID().toString(), "Greeting",
                "flow-output", "x", caller.userId(), 1007));
        storeId = Ids.newId();
        sourceId = Ids.newId();
        chunkId = Ids.newId();
        append(storeId, new KnowledgeStoreCreatedEvent(storeId, project.id(), org, UUID.randomUUID().toString(), "FAQ",
                "", "en-US", caller.userId(), 1008));
        append(sourceId, new KnowledgeSourceCreatedEvent(sourceId, storeId, project.id(), org,
                UUID.randomUUID().toString(), "Manual", "", "manual", "ready", 0, List.of(), Map.of(), caller.userId(),
                1009));
        position = append(sourceId, new KnowledgeChunkCreatedEvent(chunkId, sourceId, storeId, project.id(), org,
                UUID.randomUUID().toString(), 0, "Opening hours are 9 to 5", false, Map.of(), 1, caller.userId(), 1010));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> graph(String query) {
        return get("/v2.0/projects/" + project.id() + "/graph" + query, caller, position);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> resources(Map<String, Object> graph, String id) {
        return (List<Map<String, Object>>) ((Map<String, Object>) graph.get(id)).get("resources");
    }

    private static Map<String, Object> resource(List<Map<String, Object>> resources, String id) {
        return resources.stream().filter(r -> id.equals(r.get("_id"))).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> dependencies(Map<String, Object> resource) {
        return (List<Map<String, Object>>) resource.get("dependencies");
    }

    @Test
    void givenAProjectWithEveryKindOfResource_whenItsGraphIsRead_thenEachResourceWithItsEdges() {
        // given: the seed; when
        Map<String, Object> graph = graph("");
        // then
        assertThat(graph).containsOnlyKeys(project.id());
        assertThat((Map<String, Object>) graph.get(project.id())).containsEntry("type", "project")
                .containsEntry("name", "Graph");
        List<Map<String, Object>> resources = resources(graph, project.id());
        assertThat(resources).extracting(r -> r.get("type")).containsExactly("locale", "snippet", "function", "flow",
                "intent", "intent", "flowState", "slotFiller", "knowledgeStore", "knowledgeSource", "knowledgeChunk");
        Map<String, Object> flow = resource(resources, flowId);
        assertThat(dependencies(flow)).extracting(d -> d.get("type") + " " + d.get("_id")).containsExactly(
                "attachedIntent " + childIntent, "attachedIntent " + parentIntent, "attachedState " + stateId,
                "attachedSlotFiller " + fillerId);
        Map<String, Object> parent = resource(resources, parentIntent);
        Map<String, Object> child = resource(resources, childIntent);
        assertThat(dependencies(child)).containsExactly(Map.of("type", "parentIntent", "resourceType", "intent",
                "_id", parentIntent, "referenceId", parent.get("referenceId")));
        assertThat(dependencies(resource(resources, stateId))).extracting(d -> d.get("_id")).containsExactly(parentIntent);
        assertThat(resource(resources, fillerId)).containsEntry("name", "Zip")
                .containsEntry("properties", Map.of("type", "regex"));
        assertThat(dependencies(resource(resources, storeId))).extracting(d -> d.get("type") + " " + d.get("_id"))
                .containsExactly("attachedSource " + sourceId);
        assertThat(dependencies(resource(resources, sourceId))).extracting(d -> d.get("type") + " " + d.get("_id"))
                .containsExactly("attachedChunk " + chunkId);
        assertThat(resource(resources, chunkId)).containsEntry("name", "Opening hours are 9 to 5");
    }

    @Test
    void givenDependenciesFalseAndSnapshotsTrue_whenRead_thenNoEdgesAndEachSnapshotWithWhatItHolds() {
        // given: a snapshot of the project holding its flow
        String registry = "snapshots-" + project.id();
        String snapshot = Ids.newId();
        append(registry, new SnapshotRequestedEvent(snapshot, project.id(), caller.organisationId(), Ids.newId(),
                "Before launch", "", caller.userId(), 2000));
        append(registry, new SnapshotCreatedEvent(snapshot, project.id(), caller.organisationId(), "Before launch", "",
                "ab".repeat(32), new SnapshotCounts(1, 0, 0, 1, 0, 2, 5), caller.userId(), 2000));
        position = append(registry, new SnapshotResourcesListedEvent(snapshot, project.id(), caller.organisationId(),
                List.of(new SnapshotResource("flow", flowId, "ref-f", "Main")), 2000));
        // when
        Map<String, Object> plain = graph("?dependencies=false");
        Map<String, Object> withSnapshots = graph("?snapshots=true&packages=false");
        // then
        assertThat(resources(plain, project.id())).allSatisfy(r -> assertThat(r).doesNotContainKey("dependencies"));
        assertThat(plain).containsOnlyKeys(project.id());
        assertThat(withSnapshots).containsOnlyKeys(project.id(), snapshot);
        assertThat((Map<String, Object>) withSnapshots.get(snapshot)).containsEntry("type", "snapshot")
                .containsEntry("name", "Before launch");
        assertThat(resources(withSnapshots, snapshot)).extracting(r -> r.get("type") + " " + r.get("name"))
                .containsExactly("flow Main");
    }

    @Test
    void givenAnotherOrganisationOrBadParameters_whenRead_then404Or400() {
        Caller stranger = newOrganisation();
        Map<String, Object> missing = problem("/v2.0/projects/" + project.id() + "/graph", stranger, position, 404);
        assertThat(missing.get("detail")).isEqualTo("Project " + project.id() + " does not exist.");
        Map<String, Object> bad = problem("/v2.0/projects/" + project.id() + "/graph?snapshots=yes", caller, position,
                400);
        assertThat((Map<String, Object>) bad.get("details")).containsOnlyKeys("snapshots");
        problem("/v2.0/projects/nope/graph", caller, position, 400);
        assertThat((Map<String, Object>) problem("/v2.0/projects/" + project.id() + "/graph?asOf=1", caller, position,
                400).get("details")).containsOnlyKeys("asOf");
        // every media type the API speaks renders the graph
        for (String type : List.of("application/xml", "text/csv", "application/hal+json")) {
            http.get().uri("/v2.0/projects/" + project.id() + "/graph").header("X-API-Key", caller.apiKey())
                    .header("X-Event-Position", Long.toString(position)).accept(MediaType.parseMediaType(type))
                    .exchange().expectStatus().isOk();
        }
    }

    /**
     * The graph of a project of about two thousand resources, timed beside the project's own read in the same run:
     * medians of fifteen reads each after five warm-ups (printed, see docs/figures.md).
     */
    @Test
    void givenALargeProject_whenItsGraphIsReadRepeatedly_thenEveryResourceIsThereAndTheMediansArePrinted() {
        // given: 500 intents and 500 slot fillers in one flow, 1,000 chunks in one source (plus the seed)
        String org = caller.organisationId();
        for (int i = 0; i < 500; i++) {
            String intent = Ids.newId();
            intent(caller, project.id(), flowId, intent, "intent " + i, null, 3000 + i);
            String filler = Ids.newId();
            append(filler, new SlotFillerCreatedEvent(filler, flowId, project.id(), org, UUID.randomUUID().toString(),
                    "filler " + i, "number", null, null, false, false, true, "", false, "", false, false, "", "",
                    caller.userId(), 3000 + i));
        }
        for (int i = 0; i < 1000; i++) {
            position = append(sourceId, new KnowledgeChunkCreatedEvent(Ids.newId(), sourceId, storeId, project.id(), org,
                    UUID.randomUUID().toString(), i + 1, "chunk " + i, false, Map.of(), i + 2, caller.userId(), 4000));
        }
        // when
        List<Long> graphMillis = new java.util.ArrayList<>();
        List<Long> projectMillis = new java.util.ArrayList<>();
        Map<String, Object> graph = null;
        // a graph of this size is about 400 KB, over the test client's default buffer of 256 KB
        var client = http.mutate().codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(8 * 1024 * 1024)).build();
        for (int run = 0; run < 20; run++) {
            long started = System.nanoTime();
            graph = client.get().uri("/v2.0/projects/" + project.id() + "/graph").header("X-API-Key", caller.apiKey())
                    .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk()
                    .expectBody(Map.class).returnResult().getResponseBody();
            long graphTook = (System.nanoTime() - started) / 1_000_000;
            started = System.nanoTime();
            get("/v2.0/projects/" + project.id(), caller, position);
            long projectTook = (System.nanoTime() - started) / 1_000_000;
            if (run >= 5) {
                graphMillis.add(graphTook);
                projectMillis.add(projectTook);
            }
        }
        // then
        List<Map<String, Object>> resources = resources(graph, project.id());
        assertThat(resources).hasSize(11 + 500 + 500 + 1000);
        assertThat(dependencies(resource(resources, flowId))).hasSize(4 + 500 + 500);
        assertThat(dependencies(resource(resources, sourceId))).hasSize(1001);
        System.out.printf("GRAPH of %d resources: median %d ms; the project's own read in the same run: median %d ms%n",
                resources.size(), median(graphMillis), median(projectMillis));
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
