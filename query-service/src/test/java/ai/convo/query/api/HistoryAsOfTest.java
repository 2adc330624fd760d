package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;

/**
 * History lists and asOf reads: after every change of a resource the live read is kept; at the end, a read asOf each
 * change's position must equal exactly the read kept then, for each resource type; before its creation and after
 * its deletion the resource does not exist; another organisation sees neither history nor past.
 */
class HistoryAsOfTest extends QueryTestBase {

    private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() { };

    private Caller alice;
    private Caller bob;
    private Project project;

    /** A read kept right after a change, with the position of that change in the organisation's log. */
    private record Kept(long position, Map<String, Object> body) {
    }

    @BeforeEach
    void seed() {
        alice = newOrganisation();
        bob = newOrganisation();
        project = project(alice, "Time travel", 1000);
    }

    private Map<String, Object> read(Caller caller, String path, long globalPosition) {
        return http.get().uri(path).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(globalPosition))
                .exchange().expectStatus().isOk().expectBody(MAP).returnResult().getResponseBody();
    }

    private List<Map<String, Object>> history(Caller caller, String path, long globalPosition) {
        return ListPages.items(read(caller, path + "/history?limit=100", globalPosition));
    }

    /**
     * Applies each change and keeps the read that follows it, with the organisation's newest log position then (the
     * history's newest item is the change itself; other resources' events may have changed this one's row too).
     */
    private List<Kept> journey(String path, List<Supplier<Long>> changes) {
        List<Kept> kept = new ArrayList<>();
        for (Supplier<Long> change : changes) {
            long global = change.get();
            List<Map<String, Object>> history = history(alice, path, global);
            Map<String, Object> body = read(alice, path, global);
            long position = newestPosition();
            assertThat(((Number) history.get(history.size() - 1).get("position")).longValue()).isEqualTo(position);
            kept.add(new Kept(position, body));
        }
        return kept;
    }

    private long newestPosition() {
        return jdbc.queryForObject("SELECT max(position) FROM event_log WHERE organisation_id = ?", Long.class,
                alice.organisationId());
    }

    private void assertAsOfEqualsWhatWasRead(String path, List<Kept> kept) {
        for (Kept then : kept) {
            // a flow's training fields describe its current model, not its row's history: a read of the past has none
            Map<String, Object> rowThen = new java.util.LinkedHashMap<>(then.body());
            rowThen.keySet().removeAll(java.util.Set.of("feedbackReport", "isTrainingOutOfDate"));
            assertThat(read(alice, path + "?asOf=" + then.position(), 0)).as("%s asOf %d", path, then.position())
                    .isEqualTo(rowThen);
        }
        long createdAt = ((Number) history(alice, path, 0).get(0).get("position")).longValue();
        if (createdAt > 1) { // just before its creation it did not exist
            http.get().uri(path + "?asOf=" + (createdAt - 1)).header("X-API-Key", alice.apiKey())
                    .exchange().expectStatus().isNotFound();
        }
        // Another organisation: no past and no history, exactly as for something that never existed.
        http.get().uri(path + "?asOf=" + kept.get(kept.size() - 1).position()).header("X-API-Key", bob.apiKey())
                .exchange().expectStatus().isNotFound();
        http.get().uri(path + "/history").header("X-API-Key", bob.apiKey()).exchange().expectStatus().isNotFound();
    }

    @Test
    void aLocaleAsOfEachOfItsChangesAndAfterItsDeletion() {
        String locale = Ids.newId();
        String path = "/v2.0/locales/" + locale;
        List<Kept> kept = journey(path, List.of(
                () -> locale(alice, project.id(), locale, "German", "de-DE", 1001),
                () -> append(project.id(), new LocaleUpdatedEvent(project.id(), alice.organisationId(), locale,
                        List.of("name"), "Deutsch", "de-DE", false, null, alice.userId(), 1002)),
                () -> append(project.id(), new LocaleUpdatedEvent(project.id(), alice.organisationId(), locale,
                        List.of("fallbackLocaleReference"), "Deutsch", "de-DE", false, project.primaryLocaleId(),
                        alice.userId(), 1003))));
        assertThat(kept.get(0).body().get("name")).isEqualTo("German");
        assertThat(kept.get(1).body().get("name")).isEqualTo("Deutsch");
        long deleted = append(project.id(), new LocaleDeletedEvent(project.id(), alice.organisationId(), locale,
                alice.userId(), 1004));
        List<Map<String, Object>> history = history(alice, path, deleted);
        assertThat(history).extracting(h -> h.get("type"))
                .containsExactly("LocaleCreated", "LocaleUpdated", "LocaleUpdated", "LocaleDeleted");
        assertThat(history.get(1).get("user")).isEqualTo(alice.userId() + "@example.com");
        assertThat((Map<String, Object>) history.get(1).get("payload")).containsEntry("name", "Deutsch");
        http.get().uri(path + "?asOf=" + history.get(3).get("position")).header("X-API-Key", alice.apiKey())
                .exchange().expectStatus().isNotFound();
        assertAsOfEqualsWhatWasRead(path, kept);
        http.get().uri(path + "?asOf=yesterday").header("X-API-Key", alice.apiKey()).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.detail")
                .value(d -> assertThat(d.toString()).contains("asOf must be a position"));
    }

    @Test
    void aTokenAFunctionAFlowAndAStateAsOfEachChange() {
        String token = Ids.newId();
        String tokenPath = "/v2.0/projects/" + project.id() + "/snippets/" + token;
        assertAsOfEqualsWhatWasRead(tokenPath, journey(tokenPath, List.of(
                () -> append(token, new TokenCreatedEvent(token, project.id(), alice.organisationId(),
                        UUID.randomUUID().toString(), "Greeting", "custom", "hello", alice.userId(), 1001)),
                () -> append(token, new TokenUpdatedEvent(token, project.id(), alice.organisationId(), List.of("script"),
                        "Greeting", "custom", "hello again", alice.userId(), 1002)))));

        String function = Ids.newId();
        String functionPath = "/v2.0/functions/" + function;
        assertAsOfEqualsWhatWasRead(functionPath, journey(functionPath, List.of(
                () -> append(function, new FunctionCreatedEvent(function, project.id(), alice.organisationId(),
                        UUID.randomUUID().toString(), "f", "return 1;", false, alice.userId(), 1001)),
                () -> append(function, new FunctionUpdatedEvent(function, project.id(), alice.organisationId(),
                        List.of("disabled"), "f", "return 1;", true, alice.userId(), 1002)))));

        String flow = Ids.newId();
        String state = Ids.newId();
        String flowPath = "/v2.0/flows/" + flow;
        List<Kept> flowKept = journey(flowPath, List.of(
                () -> append(flow, new FlowCreatedEvent(flow, project.id(), alice.organisationId(),
                        UUID.randomUUID().toString(), "Main", "first", alice.userId(), 1001)),
                () -> append(flow, new FlowUpdatedEvent(flow, project.id(), alice.organisationId(), List.of("name"),
                        "Main flow", "first", alice.userId(), 1002))));
        String statePath = flowPath + "/states/" + state;
        assertAsOfEqualsWhatWasRead(statePath, journey(statePath, List.of(
                () -> append(flow, new StateCreatedEvent(flow, project.id(), alice.organisationId(), state,
                        UUID.randomUUID().toString(), "start", "whitelist", false, List.of(), alice.userId(), 1003)),
                () -> append(flow, new StateUpdatedEvent(flow, project.id(), alice.organisationId(), state,
                        List.of("intentIds"), "start", "whitelist", false, List.of(Ids.newId()), alice.userId(), 1004)))));
        // The state's history is only under its own flow.
        http.get().uri("/v2.0/flows/" + Ids.newId() + "/states/" + state + "/history").header("X-API-Key", alice.apiKey())
                .exchange().expectStatus().isNotFound();
        long deleted = append(flow, new FlowDeletedEvent(flow, project.id(), alice.organisationId(), alice.userId(), 1005));
        assertAsOfEqualsWhatWasRead(flowPath, flowKept);
        assertThat(history(alice, flowPath, deleted)).extracting(h -> h.get("type"))
                .containsExactly("FlowCreated", "FlowUpdated", "FlowDeleted");
    }

    @Test
    void anotherOrganisationGets404OnEveryHistoryRouteAndEveryAsOfRead() {
        String token = Ids.newId();
        String flow = Ids.newId();
        String state = Ids.newId();
        append(token, new TokenCreatedEvent(token, project.id(), alice.organisationId(), UUID.randomUUID().toString(),
                "t", "custom", "s", alice.userId(), 1001));
        append(flow, new FlowCreatedEvent(flow, project.id(), alice.organisationId(), UUID.randomUUID().toString(),
                "f", "", alice.userId(), 1001));
        long last = append(flow, new StateCreatedEvent(flow, project.id(), alice.organisationId(), state,
                UUID.randomUUID().toString(), "s", "whitelist", false, List.of(), alice.userId(), 1002));
        String any = Ids.newId();
        List<String> resources = List.of("/v2.0/projects/" + project.id(), "/v2.0/locales/" + project.primaryLocaleId(),
                "/v2.0/projects/" + project.id() + "/snippets/" + token, "/v2.0/flows/" + flow,
                "/v2.0/flows/" + flow + "/states/" + state, "/v2.0/functions/" + any,
                "/v2.0/flows/" + flow + "/intents/" + any, "/v2.0/flows/" + flow + "/intents/" + any + "/sentences/" + any,
                "/v2.0/knowledgestores/" + any, "/v2.0/knowledgestores/" + any + "/sources/" + any,
                "/v2.0/snapshots/" + any, "/v2.0/tasks/" + any);
        for (String resource : resources.subList(0, 5)) {
            assertThat(history(alice, resource, last)).as(resource).isNotEmpty();
            read(alice, resource + "?asOf=" + last, last); // exists for its owner
        }
        for (String resource : resources) {
            for (String path : List.of(resource + "/history", resource + "?asOf=1", resource + "?asOf=2026-01-01T00:00:00Z")) {
                http.get().uri(path).header("X-API-Key", bob.apiKey()).header("X-Event-Position", Long.toString(last))
                        .exchange().expectStatus().isNotFound()
                        .expectBody(String.class).value(body -> assertThat(body).doesNotContain(alice.organisationId()));
            }
        }
    }

    @Test
    void aProjectAKnowledgeStoreAndSourceAndASentenceAsOfEachChange() {
        // The project's own history holds its creation and its primary-locale switch; its asOf reads follow it.
        String german = Ids.newId();
        String projectPath = "/v2.0/projects/" + project.id();
        long created = locale(alice, project.id(), german, "German", "de-DE", 1001);
        // The locales' events changed the project's row (its primaryLocaleReference) after its own creation.
        Map<String, Object> afterLocales = read(alice, projectPath, created);
        Kept first = new Kept(newestPosition(), afterLocales);
        assertThat(read(alice, projectPath + "?asOf=1", 0).get("primaryLocaleReference")).isEqualTo("");
        List<Kept> kept = new ArrayList<>(List.of(first));
        kept.addAll(journey(projectPath, List.of(() -> append(project.id(), new ai.convo.contract.locale.PrimaryLocaleChangedEvent(
                project.id(), alice.organisationId(), project.primaryLocaleId(), german, alice.userId(), 1002)))));
        assertThat(kept.get(1).body().get("primaryLocaleReference")).isEqualTo(german);
        assertAsOfEqualsWhatWasRead(projectPath, kept);

        String store = Ids.newId();
        String source = Ids.newId();
        String storePath = "/v2.0/knowledgestores/" + store;
        assertAsOfEqualsWhatWasRead(storePath, journey(storePath, List.of(
                () -> append(store, new ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent(store, project.id(),
                        alice.organisationId(), UUID.randomUUID().toString(), "Docs", "", "en-US", alice.userId(), 1003)))));
        String sourcePath = storePath + "/sources/" + source;
        assertAsOfEqualsWhatWasRead(sourcePath, journey(sourcePath, List.of(
                () -> append(source, new ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent(source, store, project.id(),
                        alice.organisationId(), UUID.randomUUID().toString(), "FAQ", "", "manual", "ready", 0,
                        List.of("a"), Map.of("k", "v"), alice.userId(), 1004)),
                () -> append(source, new ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent(source, store, project.id(),
                        alice.organisationId(), List.of("status"), "FAQ", "", "disabled", 0, List.of("a", "b"),
                        Map.of("k", "v2"), alice.userId(), 1005)))));

        String flow = Ids.newId();
        String intent = Ids.newId();
        String sentence = Ids.newId();
        String sentencePath = "/v2.0/flows/" + flow + "/intents/" + intent + "/sentences/" + sentence;
        assertAsOfEqualsWhatWasRead(sentencePath, journey(sentencePath, List.of(
                () -> append(intent, new ai.convo.contract.intent.SentenceCreatedEvent(sentence, intent, flow, project.id(),
                        alice.organisationId(), german, "Wo ist meine Bestellung?", alice.userId(), 1006)),
                () -> append(intent, new ai.convo.contract.intent.SentenceUpdatedEvent(sentence, intent, flow, project.id(),
                        alice.organisationId(), german, List.of("text"), "Wo bleibt meine Bestellung?", alice.userId(), 1007)))));
    }
}
