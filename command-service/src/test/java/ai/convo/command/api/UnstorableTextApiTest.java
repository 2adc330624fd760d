package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.testing.HostileCorpus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * Text PostgreSQL cannot store (U+0000, unpaired surrogates) sent to every write route of the command service, on real
 * resources: each is a 400 that names where it was, and nothing is stored. Once stored, such text stopped every
 * projection for every organisation.
 */
class UnstorableTextApiTest extends IntentApiSupport {

    /** JSON text as a client sends it: the escapes are what Jackson turns into a NUL or a lone surrogate. */
    private static final List<String> BODIES = List.of(
            "{\"name\":\"a\\u0000b\"}",
            "{\"name\":\"a\\ud800b\"}",
            "{\"description\":{\"nested\":[\"ok\",\"\\udfff\"]}}",
            "{\"\\u0000\":\"a field name\"}");

    /** Routes whose operation takes no body (the official client sends {} or its options object); they never read it. */
    private static final List<String> IGNORE_THE_BODY = List.of("/intents/train", "/yesnointents/train", "/trainallflows", "/sentences/generate",
            "/package", "/downloadlink", "/cancel", "/resetfailedloginattempts", "/stop");

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    @Test
    void givenEveryWriteRouteOnRealResources_whenABodyHoldsUnstorableText_thenA400NamesItAndNothingIsStored() {
        // given: one of each resource, so that a route's lookups succeed and only the body can be wrong
        Map<String, String> ids = resources();
        List<HostileCorpus.Route> writes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream()).distinct()
                .filter(route -> route.method().equals("POST") || route.method().equals("PATCH"))
                .filter(route -> !route.pattern().endsWith("/upload") && !route.pattern().endsWith("/import"))
                .toList();
        assertThat(writes).hasSizeGreaterThan(40);
        long lastBefore = lastPosition();
        List<String> notRefused = new ArrayList<>();
        // when
        for (HostileCorpus.Route route : writes) {
            String uri = fill(route.pattern(), ids) + (route.pattern().endsWith("/v2.0/flows") && route.method().equals("PATCH")
                    ? "?projectId=" + ids.get("projectId") : "");
            boolean basicOnly = route.pattern().contains("/system/");
            for (String body : BODIES) {
                var result = http.method(HttpMethod.valueOf(route.method())).uri(uri)
                        .header(basicOnly ? "Authorization" : "X-API-Key", basicOnly ? basic(ADMIN_EMAIL, ADMIN_PASSWORD) : ADMIN_KEY)
                        .contentType(MediaType.APPLICATION_JSON).bodyValue(body.getBytes(StandardCharsets.UTF_8))
                        .exchange().expectBody(String.class).returnResult();
                String answer = result.getResponseBody() == null ? "" : result.getResponseBody();
                boolean refused = result.getStatus().value() == 400 && answer.contains("cannot be stored");
                if (IGNORE_THE_BODY.stream().anyMatch(route.pattern()::endsWith)) {
                    // these take no body and read none: what matters is that nothing of it is stored (checked below)
                    assertThat(result.getStatus().is5xxServerError() && result.getStatus().value() != 501).as(uri).isFalse();
                } else if (!refused) {
                    notRefused.add(route.method() + " " + uri + " " + body + " -> " + result.getStatus().value() + " " + answer);
                }
                // then: no answer carries the text back either
                assertThat(answer).doesNotContain("\\u0000").doesNotContain("\u0000");
            }
        }
        // the trainings those body-less routes started run on; they end before what is stored is read, so that no
        // later test of this context sees their events arrive
        SnapshotWorkSupport.eventually(() -> jdbc.queryForObject("SELECT count(*) FROM task_run WHERE project_id = ? "
                + "AND status IN ('queued', 'active', 'cancelling')", Long.class, ids.get("projectId")) == 0,
                "the trainings started by the body-less routes");
        // then
        assertThat(notRefused).isEmpty();
        // only the operations that take no body stored anything (a reset, the Basic sign-in of the system routes, and
        // the trainings, which are tasks); their payloads are checked below
        assertThat(jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE global_index > ?", String.class,
                lastBefore)).allMatch(type -> type.endsWith(".FailedLoginAttemptsResetEvent")
                || type.endsWith(".LoginSucceededEvent") || type.startsWith("ai.convo.contract.task.Task")
                || type.endsWith(".FlowIntentsTrainedEvent") || type.endsWith(".YesNoIntentsTrainedEvent")
                || type.endsWith(".YesNoIntentSeededEvent"));
        assertThat(jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE global_index > ?",
                String.class, lastBefore)).noneMatch(payload -> payload.contains("\\u0000") || payload.contains("\\ud800")
                || payload.contains("nested") || payload.contains("a field name"));
    }

    @Test
    void givenAQueryParameterOrPathSegmentWithNul_whenSent_thenA400NamesIt() {
        Map<String, String> ids = resources();
        long eventsBefore = eventCount();
        var problem = json(http.patch().uri(java.net.URI.create(baseUrl() + "/v2.0/functions/" + ids.get("functionId")
                        + "?projectId=a%00b")).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "fine")).exchange(), 400);
        assertThat((String) problem.get("detail")).contains("cannot be stored");
        json(http.post().uri(java.net.URI.create(baseUrl() + "/v2.0/flows/a%00b/intents"))
                .header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "fine")).exchange(), 400);
        assertThat(eventCount()).isEqualTo(eventsBefore);
    }

    private long lastPosition() {
        Long last = jdbc.queryForObject("SELECT coalesce(max(global_index), 0) FROM domain_event_entry", Long.class);
        return last == null ? 0 : last;
    }

    private String baseUrl() {
        return "http://localhost:" + environment.getProperty("local.server.port") + "/new";
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> resources() {
        Flow flow = newFlow();
        String intentId = intentNamed(flow, "Greeting");
        String sentenceId = (String) addSentence(flow, intentId, flow.primaryLocaleId(), "hello there").get("_id");
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("projectId", flow.projectId());
        ids.put("flowId", flow.id());
        ids.put("intentId", intentId);
        ids.put("sentenceId", sentenceId);
        ids.put("localeId", flow.primaryLocaleId());
        ids.put("userId", adminUserId());
        ids.put("voiceAssistant", "alexa");
        ids.put("action", "retry");
        ids.put("functionId", (String) json(send(HttpMethod.POST, "/v2.0/functions", ADMIN_KEY,
                Map.of("projectId", flow.projectId(), "name", "F" + Ids.newId(), "code", "return 1;")), 201).get("_id"));
        ids.put("snippetId", (String) json(send(HttpMethod.POST, "/v2.0/projects/" + flow.projectId() + "/snippets",
                ADMIN_KEY, Map.of("label", "L" + Ids.newId(), "type", "custom", "script", "x")), 201).get("_id"));
        String storeId = (String) json(send(HttpMethod.POST, "/v2.0/knowledgestores", ADMIN_KEY,
                Map.of("projectId", flow.projectId(), "name", "FAQ", "language", "en-US")), 201).get("_id");
        ids.put("knowledgeStoreId", storeId);
        Map<String, Object> source = json(send(HttpMethod.POST, "/v2.0/knowledgestores/" + storeId + "/sources", ADMIN_KEY,
                Map.of("name", "Manual", "type", "manual")), 201);
        Object created = source.containsKey("knowledgeSource") ? source.get("knowledgeSource") : source;
        ids.put("sourceId", (String) ((Map<String, Object>) created).get("_id"));
        return ids;
    }

    /** A route's pattern with its variables replaced: a real id where there is one, a fresh id otherwise. */
    private static String fill(String pattern, Map<String, String> ids) {
        java.util.regex.Matcher variable = java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(pattern);
        StringBuilder uri = new StringBuilder();
        while (variable.find()) {
            variable.appendReplacement(uri, ids.getOrDefault(variable.group(1), Ids.newId()));
        }
        variable.appendTail(uri);
        return uri.toString().replaceFirst("^/new", "");
    }
}
