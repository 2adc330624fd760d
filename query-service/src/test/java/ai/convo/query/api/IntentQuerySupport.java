package ai.convo.query.api;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.locale.LocaleCreatedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.MediaType;

/** Appends flow, intent and sentence events as the command service would, and reads the intent routes back. */
abstract class IntentQuerySupport extends QueryTestBase {

    /** An intent as seeded, with every value a list may sort by. */
    record Seed(String id, String referenceId, String name, String description, List<String> tags, boolean reject,
                boolean disabled, String parent, long createdAt, long lastChanged) {
    }

    String newFlow(Caller caller, String projectId, long at) {
        String flowId = Ids.newId();
        append(flowId, new FlowCreatedEvent(flowId, projectId, caller.organisationId(), UUID.randomUUID().toString(),
                "Main", "", caller.userId(), at));
        return flowId;
    }

    long intent(Caller caller, String projectId, String flowId, Seed seed) {
        return append(seed.id(), new IntentCreatedEvent(seed.id(), flowId, projectId, caller.organisationId(),
                seed.referenceId(), seed.name(), seed.description(), seed.tags(), seed.reject(), seed.disabled(),
                seed.parent(), "", List.of(), "", List.of(), Map.of(), ChildFeatures.NONE, null, caller.userId(),
                seed.createdAt()));
    }

    Seed seed(String name, String parent, long at) {
        return new Seed(Ids.newId(), UUID.randomUUID().toString(), name, "", List.of(), false, false, parent, at, at);
    }

    long intent(Caller caller, String projectId, String flowId, String intentId, String name, String parent, long at) {
        return intent(caller, projectId, flowId, new Seed(intentId, UUID.randomUUID().toString(), name, "", List.of(),
                false, false, parent, at, at));
    }

    long sentence(Caller caller, String projectId, String flowId, String intentId, String sentenceId, String localeId,
                  String text, long at) {
        return append(intentId, new SentenceCreatedEvent(sentenceId, intentId, flowId, projectId, caller.organisationId(),
                localeId, text, caller.userId(), at));
    }

    /** Several sentences of an intent in one locale; answers the position of the last. */
    long sentences(Caller caller, String projectId, String flowId, String intentId, String localeId, int count) {
        long position = 0;
        for (int i = 0; i < count; i++) {
            position = sentence(caller, projectId, flowId, intentId, Ids.newId(), localeId, "sentence " + i, 1000 + i);
        }
        return position;
    }

    long locale(Caller caller, String projectId, String localeId, String name, String language, String fallback) {
        return append(projectId, new LocaleCreatedEvent(projectId, caller.organisationId(), localeId,
                UUID.randomUUID().toString(), name, language, false, fallback, caller.userId(), 1000));
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> get(String uri, Caller caller, long position) {
        return http.get().uri(uri)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> problem(String uri, Caller caller, long position, int status) {
        return http.get().uri(uri)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange()
                .expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    static List<Map<String, Object>> items(Map<String, Object> page) {
        return ListPages.items(page);
    }

    static List<String> ids(Map<String, Object> page) {
        return ListPages.ids(page);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> children(Map<String, Object> item) {
        return (List<Map<String, Object>>) item.get("children");
    }

    /**
     * Every id of a forward cursor walk. {@code uri} carries every parameter, its limit included; the same
     * parameters are sent again with each cursor (the list engine accepts them when they match).
     */
    List<String> walk(String uri, Caller caller, long position) {
        Map<String, Object> page = get(uri, caller, position);
        List<String> seen = new ArrayList<>(ids(page));
        while (page.get("nextCursor") != null) {
            page = get(uri + "&next=" + page.get("nextCursor"), caller, position);
            seen.addAll(ids(page));
        }
        return seen;
    }

    /** Walks forward to the last page, then back with previous cursors; answers the ids in list order. */
    List<String> walkBack(String uri, Caller caller, long position) {
        Map<String, Object> page = get(uri, caller, position);
        while (page.get("nextCursor") != null) {
            page = get(uri + "&next=" + page.get("nextCursor"), caller, position);
        }
        List<String> seen = new ArrayList<>(ids(page));
        while (page.get("previousCursor") != null) {
            page = get(uri + "&previous=" + page.get("previousCursor"), caller, position);
            List<String> before = new ArrayList<>(ids(page));
            before.addAll(seen);
            seen = before;
        }
        return seen;
    }
}
