package ai.convo.command.api;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.testing.HostileCorpus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * Every write route of the command service, sent by one organisation with another organisation's id in each place an
 * id goes (path and body, one place at a time, its own ids everywhere else): the whole answer must be byte for byte the
 * one a random id gets (trace id and instance aside, the id itself masked), and nothing is stored. Anything else
 * tells one organisation what exists in another, or lets it refer to another's resources. The routes come from the
 * service's own route table: a new write route fails here until it is given its body below. An answer that is not a
 * refusal must be one that changes nothing (removing what is not there), or it stored a reference to the other's.
 * The same bodies drive every write route twenty times at once on one resource, beside another organisation's write.
 */
class TenancyOracleApiTest extends IntentApiSupport {

    /** The body each write route is sent with; ids are {kind} placeholders, filled per organisation. */
    private static final Map<String, String> BODIES = Map.ofEntries(
            entry("POST /v2.0/users/me/apikeys", "{}"),
            entry("DELETE /v2.0/users/me/apikeys/{apiKeyId}", ""),
            entry("POST /v2.0/users/{userId}/resetfailedloginattempts", "{}"),
            entry("POST /v2.0/users", "{\"email\":\"{fresh}@example.com\"}"),
            entry("PATCH /v2.0/users/{userId}", "{\"name\":\"{fresh}\"}"),
            entry("PATCH /v2.0/users/me", "{\"name\":\"{fresh}\"}"),
            entry("DELETE /v2.0/users/{userId}", ""),
            entry("DELETE /v2.0/users/me", ""),
            entry("POST /v2.0/users/{userId}/addroletouser", "{\"role\":\"projectManager\"}"),
            entry("POST /v2.0/users/{userId}/removerolefromuser", "{\"role\":\"projectManager\"}"),
            entry("POST /v2.0/users/me/changepassword", "{\"oldPassword\":\"not-it\",\"newPassword\":\"{fresh}\"}"),
            entry("POST /v2.0/projects/{projectId}/addprojectmember", "{\"userId\":\"{userId}\"}"),
            entry("POST /v2.0/projects/{projectId}/removeprojectmember", "{\"userId\":\"{userId}\"}"),
            entry("POST /v2.0/users/{userId}/addproject", "{\"projectId\":\"{projectId}\"}"),
            entry("POST /v2.0/users/{userId}/removeproject", "{\"projectId\":\"{projectId}\"}"),
            entry("PATCH /v2.0/projects/{projectId}/members/{userId}", "{\"allowedLocales\":[\"{localeId}\"]}"),
            entry("POST /v2.0/projects/{projectId}/members/{userId}/addroletomember", "{\"role\":\"flowEditor\"}"),
            entry("POST /v2.0/projects/{projectId}/members/{userId}/removerolefrommember",
                    "{\"role\":\"flowEditor\"}"),
            entry("POST /v2.0/flows", "{\"projectId\":\"{projectId}\",\"name\":\"{fresh}\"}"),
            entry("POST /v2.0/flows/{flowId}/clone", "{}"),
            entry("PATCH /v2.0/flows/{flowId}", "{\"name\":\"{fresh}\"}"),
            entry("PATCH /v2.0/flows", "{\"operations\":[{\"op\":\"update\",\"id\":\"{flowId}\",\"value\":{\"name\":\"{fresh}\"}}]}"),
            entry("PATCH /v2.0/flows/{flowId}/settings",
                    "{\"localeSettings\":{\"localeReference\":\"{localeId}\",\"inheritFallbackLocaleModel\":true}}"),
            entry("DELETE /v2.0/flows/{flowId}", ""),
            entry("POST /v2.0/snapshots", "{\"projectId\":\"{projectId}\",\"name\":\"{fresh}\"}"),
            entry("DELETE /v2.0/snapshots/{snapshotId}", ""),
            entry("POST /v2.0/snapshots/{snapshotId}/restore", "{\"projectId\":\"{projectId}\"}"),
            entry("POST /v2.0/snapshots/{snapshotId}/package", "{}"),
            entry("POST /v2.0/snapshots/{snapshotId}/downloadlink", "{}"),
            entry("POST /v2.0/tasks/{taskId}/cancel", "{}"),
            entry("POST /v2.0/projects/{projectId}/snippets", "{\"label\":\"{fresh}\",\"type\":\"custom\",\"script\":\"x\"}"),
            entry("PATCH /v2.0/projects/{projectId}/snippets/{snippetId}", "{\"label\":\"{fresh}\"}"),
            entry("DELETE /v2.0/projects/{projectId}/snippets/{snippetId}", ""),
            entry("POST /v2.0/projects", "{\"name\":\"{fresh}\",\"locale\":\"en-US\"}"),
            entry("PATCH /v2.0/projects/{projectId}", "{\"name\":\"{fresh}\"}"),
            entry("PATCH /v2.0/projects/{projectId}/settings", "{}"),
            entry("POST /v2.0/projects/validateprojectname", "{\"name\":\"{fresh}\"}"),
            entry("DELETE /v2.0/projects/{projectId}", ""),
            entry("POST /v2.0/external/{voiceAssistant}/users", "{\"accessToken\":\"a\",\"refreshToken\":\"r\"}"),
            entry("DELETE /v2.0/external/{voiceAssistant}/users/me", ""),
            entry("POST /v2.0/locales", "{\"projectId\":\"{projectId}\",\"name\":\"{fresh}\",\"nluLanguage\":\"de-DE\","
                    + "\"fallbackLocaleReference\":\"{localeId}\"}"),
            entry("PATCH /v2.0/locales/{localeId}", "{\"fallbackLocaleReference\":\"{otherLocaleId}\"}"),
            entry("DELETE /v2.0/locales/{localeId}", ""),
            entry("POST /v2.0/functions", "{\"projectId\":\"{projectId}\",\"name\":\"{fresh}\",\"code\":\"return 1;\"}"),
            entry("PATCH /v2.0/functions/{functionId}", "{\"name\":\"{fresh}\"}"),
            entry("DELETE /v2.0/functions/{functionId}", ""),
            entry("POST /v2.0/functions/{functionId}/trigger", "{\"userId\":\"{fresh}\"}"),
            entry("POST /v2.0/functions/{functionId}/instances/{instanceId}/stop", ""),
            entry("POST /v2.0/knowledgestores", "{\"projectId\":\"{projectId}\",\"name\":\"{fresh}\",\"language\":\"en-US\"}"),
            entry("PATCH /v2.0/knowledgestores/{knowledgeStoreId}", "{\"name\":\"{fresh}\"}"),
            entry("DELETE /v2.0/knowledgestores/{knowledgeStoreId}", ""),
            entry("POST /v2.0/knowledgestores/{knowledgeStoreId}/sources", "{\"name\":\"{fresh}\",\"type\":\"manual\"}"),
            entry("PATCH /v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}", "{\"name\":\"{fresh}\"}"),
            entry("DELETE /v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}", ""),
            entry("POST /v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks", "{\"text\":\"{fresh}\"}"),
            entry("PATCH /v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks/{chunkId}",
                    "{\"text\":\"{fresh}\"}"),
            entry("DELETE /v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks/{chunkId}", ""),
            entry("POST /v2.0/flows/{flowId}/states", "{\"name\":\"{fresh}\",\"intentIds\":[\"{intentId}\"]}"),
            entry("PATCH /v2.0/flows/{flowId}/states/{stateId}", "{\"intentIds\":[\"{intentId}\"]}"),
            entry("PATCH /v2.0/flows/{flowId}/states", "{\"operations\":[{\"op\":\"update\",\"id\":\"{stateId}\","
                    + "\"value\":{\"intentIds\":[\"{intentId}\"]}},{\"op\":\"create\",\"value\":{\"name\":\"{fresh}\","
                    + "\"intentIds\":[\"{otherIntentId}\"]}}]}"),
            entry("DELETE /v2.0/flows/{flowId}/states/{stateId}", ""),
            entry("POST /v2.0/flows/{flowId}/states/{stateId}/addintent", "{\"intentId\":\"{otherIntentId}\"}"),
            entry("POST /v2.0/flows/{flowId}/states/{stateId}/removeintent", "{\"intentId\":\"{intentId}\"}"),
            entry("POST /v2.0/flows/{flowId}/intents/export", "{\"localeId\":\"{localeId}\",\"format\":\"json\"}"),
            entry("POST /v2.0/flows/{flowId}/intents", "{\"name\":\"{fresh}\",\"parentIntentId\":\"{intentId}\","
                    + "\"childFeatures\":[\"{otherIntentId}\"]}"),
            entry("PATCH /v2.0/flows/{flowId}/intents/{intentId}", "{\"localeId\":\"{localeId}\","
                    + "\"parentIntentId\":\"{otherIntentId}\",\"childFeatures\":[\"{otherIntentId}\"]}"),
            entry("PATCH /v2.0/flows/{flowId}/intents", "{\"operations\":[{\"op\":\"update\",\"id\":\"{intentId}\","
                    + "\"value\":{\"childFeatures\":[\"{otherIntentId}\"],\"localeId\":\"{localeId}\"}},"
                    + "{\"op\":\"create\",\"value\":{\"name\":\"{fresh}\",\"parentIntentId\":\"{intentId}\","
                    + "\"childFeatures\":[\"{otherIntentId}\"]}},{\"op\":\"delete\",\"id\":\"{otherIntentId}\"}]}"),
            entry("POST /v2.0/flows/{flowId}/intents/{intentId}/addlocalization",
                    "{\"localeId\":\"{otherLocaleId}\",\"inheritFromLocaleId\":\"{localeId}\"}"),
            entry("POST /v2.0/flows/{flowId}/intents/{intentId}/removelocalization", "{\"localeId\":\"{otherLocaleId}\"}"),
            entry("POST /v2.0/flows/{flowId}/addlocalization",
                    "{\"localeId\":\"{otherLocaleId}\",\"inheritFromLocaleId\":\"{localeId}\"}"),
            entry("POST /v2.0/flows/{flowId}/removelocalization", "{\"localeId\":\"{otherLocaleId}\"}"),
            entry("DELETE /v2.0/flows/{flowId}/intents/learningsentences/{learningSentenceId}", ""),
            entry("DELETE /v2.0/flows/{flowId}/intents/{intentId}", ""),
            entry("POST /v2.0/flows/{flowId}/intents/{intentId}/sentences", "{\"text\":\"t\",\"localeId\":\"{localeId}\"}"),
            entry("PATCH /v2.0/flows/{flowId}/intents/{intentId}/sentences", "{\"operations\":[{\"op\":\"update\","
                    + "\"id\":\"{sentenceId}\",\"value\":{\"text\":\"t2\"}},{\"op\":\"create\",\"value\":{\"text\":\"t3\","
                    + "\"localeId\":\"{localeId}\"}}]}"),
            entry("PATCH /v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}",
                    "{\"text\":\"t2\",\"localeReference\":\"{localeId}\"}"),
            entry("DELETE /v2.0/flows/{flowId}/intents/{intentId}/sentences/{sentenceId}", ""),
            entry("POST /v2.0/flows/{flowId}/intents/{intentId}/sentences/generate", "{}"),
            entry("POST /v2.0/flows/{flowId}/intents/train", "{}"),
            entry("POST /v2.0/projects/{projectId}/trainallflows", "{}"),
            entry("POST /v2.0/projects/{projectId}/nlu/scores",
                    "{\"flowReferenceId\":\"{flowId}\",\"localeReferenceId\":\"{localeId}\",\"sentence\":\"hello\"}"),
            entry("POST /v2.0/flows/{flowId}/slotfillers", "{\"name\":\"{fresh}\",\"type\":\"age\"}"),
            entry("PATCH /v2.0/flows/{flowId}/slotfillers/{slotFillerId}", "{\"name\":\"{fresh}\"}"),
            entry("PATCH /v2.0/flows/{flowId}/slotfillers", "{\"operations\":[{\"op\":\"update\","
                    + "\"id\":\"{slotFillerId}\",\"value\":{\"name\":\"{fresh}\"}},{\"op\":\"create\","
                    + "\"value\":{\"name\":\"{fresh}\",\"type\":\"slot\",\"slot\":\"city\"}}]}"),
            entry("DELETE /v2.0/flows/{flowId}/slotfillers/{slotFillerId}", ""),
            entry("PATCH /v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}", "{\"rules\":[\"r\"],\"isDisabled\":false}"),
            entry("DELETE /v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}", ""),
            entry("POST /v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}/sentences", "{\"text\":\"t\"}"),
            entry("PATCH /v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}/sentences/{sentenceId}",
                    "{\"text\":\"t2\"}"),
            entry("DELETE /v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}/sentences/{sentenceId}", ""),
            entry("POST /v2.0/locales/{localeId}/yesnointents/train", ""),
            entry("POST /v2.0/locales/{localeId}/yesnointents/scores", "{\"sentence\":\"yes\"}"),
            entry("POST /v2.0/projects/{projectId}/locales/yesnointents/train", "{}"),
            entry("POST /v2.0/projects/createbytemplate", "{\"name\":\"{fresh}\",\"locale\":\"en-US\","
                    + "\"templateConfiguration\":{\"template\":\"support\"}}"));

    /** Write routes no organisation's key reaches (system administrators', or the system's own). */
    private static final List<String> NOT_AN_ORGANISATIONS = List.of(
            "POST /management/v2.0/organisations", "POST /management/v2.0/system/createsystemmessage",
            "POST /management/v2.0/projections/rebuild", "POST /management/v2.0/projections/deadletters/{action}",
            "POST /management/v2.0/callrecords");

    /** Multipart routes: their form fields are checked by their own tests (below, the same way). */
    private static final List<String> MULTIPART = List.of("POST /v2.0/snapshots/upload",
            "POST /v2.0/flows/{flowId}/intents/import", "POST /v2.0/knowledgestores/{knowledgeStoreId}/sources/upload");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    @Test
    void givenTheRouteTable_whenListed_thenEveryWriteRouteHasABodyHere() {
        // given
        List<String> writes = writeRoutes();
        // then
        assertThat(writes).hasSizeGreaterThan(60);
        assertThat(writes.stream().filter(route -> !BODIES.containsKey(route) && !NOT_AN_ORGANISATIONS.contains(route)
                && !MULTIPART.contains(route))).isEmpty();
    }

    @Test
    void givenEveryWriteRoute_whenAnotherOrganisationsIdIsInPathOrBody_thenTheAnswerIsThatOfAnIdThatDoesNotExist() {
        // given: one of each resource in organisation A (the bootstrap's) and in organisation B
        Map<String, String> a = resources(ADMIN_KEY, adminUserId());
        String otherKey = otherOrganisationKey("oracle-" + Ids.newId() + "@example.com");
        Map<String, String> b = resources(otherKey, null);
        List<String> differences = new ArrayList<>();
        // when: B sends each write route with one of A's ids, then with a random id, in the same place
        for (String route : writeRoutes()) {
            if (!BODIES.containsKey(route)) {
                continue;
            }
            String method = route.substring(0, route.indexOf(' '));
            String path = route.substring(route.indexOf(' ') + 1);
            String body = BODIES.get(route);
            int places = count(path) + count(body);
            for (int place = 0; place < places; place++) {
                String kind = kindAt(path + body, place);
                if (!a.containsKey(kind)) {
                    continue; // a segment that names no resource of an organisation ({voiceAssistant})
                }
                String random = Ids.newId();
                // a name of its own per pair, so that no name taken by an earlier request decides the answer
                Map<String, String> own = new LinkedHashMap<>(b);
                own.put("fresh", "N" + Ids.newId());
                long before = eventCount();
                Answer foreign = send(otherKey, method, path, body, own, place, a.get(kind));
                Answer missing = send(otherKey, method, path, body, own, place, random);
                long stored = eventCount() - before;
                // then
                String at = route + " with " + kind + " #" + place;
                if (!foreign.without(a.get(kind)).equals(missing.without(random))) {
                    differences.add(at + ":\n  foreign: " + foreign + "\n  random:  " + missing);
                } else if (foreign.status() >= 500 && foreign.status() != 501) {
                    differences.add(at + ": a server error: " + foreign);
                } else if (stored != 0) {
                    // equal answers that stored something: the other organisation's id was taken as a reference
                    differences.add(at + ": stored " + stored + " events: " + foreign);
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    /**
     * The same write, twenty times at once on one resource, for every write route in turn (creations first, then
     * changes, then deletions from the leaves to the project): no answer is a 5xx (but 501), every one comes within the
     * client's 30 s, and another organisation's write beside each burst answers within two seconds.
     */
    @Test
    void givenEveryWriteRoute_whenSentTwentyTimesAtOnceOnOneResource_thenNoServerErrorAndTheNeighbourIsServed()
            throws Exception {
        // given: one of each resource in organisation A, and a neighbour organisation with a project of its own
        Map<String, String> a = resources(ADMIN_KEY, adminUserId());
        String neighbourKey = otherOrganisationKey("burst-" + Ids.newId() + "@example.com");
        String neighbourProject = (String) createProject(neighbourKey, "Neighbour " + Ids.newId(), "en-US").get("_id");
        // a caller deleting themselves would end the bootstrap administrator for every later test (UserApiTest covers it)
        List<String> routes = writeRoutes().stream().filter(BODIES::containsKey)
                .filter(route -> !route.equals("DELETE /v2.0/users/me"))
                .sorted(java.util.Comparator.comparingInt(TenancyOracleApiTest::burstOrder)).toList();
        List<String> findings = new ArrayList<>();
        long slowestNeighbour = 0;
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(21);
        try {
            for (String route : routes) {
                String method = route.substring(0, route.indexOf(' '));
                String path = route.substring(route.indexOf(' ') + 1);
                Map<String, String> own = new LinkedHashMap<>(a);
                own.put("fresh", "N" + Ids.newId());
                own.put("voiceAssistant", "alexa");
                // when: twenty identical requests at once, and the neighbour's write beside them
                java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                List<java.util.concurrent.Future<Answer>> burst = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    burst.add(clients.submit(() -> {
                        go.await();
                        return send(ADMIN_KEY, method, path, BODIES.get(route), own, -1, null);
                    }));
                }
                java.util.concurrent.Future<Long> neighbour = clients.submit(() -> {
                    go.await();
                    long started = System.nanoTime();
                    Answer answer = send(neighbourKey, "PATCH", "/v2.0/projects/{projectId}", "{\"name\":\"{fresh}\"}",
                            Map.of("projectId", neighbourProject, "fresh", "N" + Ids.newId()), -1, null);
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    return answer.status() == 200 ? millis : -answer.status();
                });
                go.countDown();
                // then
                for (var future : burst) {
                    try {
                        Answer answer = future.get();
                        if (answer.status() >= 500 && answer.status() != 501) {
                            findings.add(route + ": " + answer);
                        }
                    } catch (java.util.concurrent.ExecutionException e) {
                        findings.add(route + ": no answer within 30 s (" + e.getCause() + ")");
                    }
                }
                long neighbourMillis = neighbour.get();
                if (neighbourMillis < 0 || neighbourMillis > 2_000) {
                    findings.add(route + ": the neighbour's write " + (neighbourMillis < 0 ? "answered "
                            + -neighbourMillis : "took " + neighbourMillis + " ms"));
                }
                slowestNeighbour = Math.max(slowestNeighbour, neighbourMillis);
            }
        } finally {
            clients.shutdownNow();
            // the tasks the bursts created (restores, copies, packages, exports) end before the next test counts events
            long deadline = System.nanoTime() + 180_000_000_000L;
            while (System.nanoTime() < deadline && jdbc.queryForObject("SELECT count(*) FROM task_run WHERE status "
                    + "NOT IN ('done', 'error', 'cancelled')", Long.class) > 0) {
                Thread.sleep(50);
            }
        }
        System.out.printf("%d write routes × 20 at once: the neighbour's slowest write beside a burst %d ms%n",
                routes.size(), slowestNeighbour);
        assertThat(findings).isEmpty();
    }

    /** Creations, then changes, then deletions from the leaves to the project, so each burst finds its resource. */
    private static int burstOrder(String route) {
        if (!route.startsWith("DELETE")) {
            return route.startsWith("POST") ? 0 : 1;
        }
        List<String> leavesFirst = List.of("sentences", "slotfillers", "learningsentences", "intents", "states", "sources",
                "knowledgestores", "snippets", "functions", "locales", "flows", "snapshots", "apikeys", "external",
                "users", "projects");
        for (int i = 0; i < leavesFirst.size(); i++) {
            if (route.contains("/" + leavesFirst.get(i) + "/")) {
                return 2 + i;
            }
        }
        return 2 + leavesFirst.size();
    }

    /** A route's answer: its status and body without what differs per request (instance, traceId). */
    record Answer(int status, String body) {

        String without(String id) {
            return status + " " + body.replace(id, "<ID>")
                    .replaceAll("\"traceId\"\\s*:\\s*\"[^\"]*\"", "\"traceId\":\"\"")
                    .replaceAll("\"instance\"\\s*:\\s*\"[^\"]*\"", "\"instance\":\"\"");
        }
    }

    private Answer send(String key, String method, String path, String body, Map<String, String> own, int place,
                        String id) {
        String filledPath = fill(path, own, place, id);
        String filledBody = fill(body, own, place - count(path), id);
        String uri = filledPath + (path.equals("/v2.0/flows") && method.equals("PATCH")
                ? "?projectId=" + own.get("projectId") : "");
        var request = http.method(HttpMethod.valueOf(method)).uri(uri).header("X-API-Key", key);
        var result = (filledBody.isEmpty() ? request.exchange() : request.contentType(MediaType.APPLICATION_JSON)
                .bodyValue(filledBody.getBytes(StandardCharsets.UTF_8)).exchange())
                .expectBody(String.class).returnResult();
        return new Answer(result.getStatus().value(), result.getResponseBody() == null ? "" : result.getResponseBody());
    }

    /** The text with its placeholders filled from {@code own}, the one at {@code place} with {@code id}. */
    private static String fill(String text, Map<String, String> own, int place, String id) {
        Matcher variable = PLACEHOLDER.matcher(text);
        StringBuilder filled = new StringBuilder();
        int index = 0;
        while (variable.find()) {
            String value = index++ == place ? id : own.getOrDefault(variable.group(1), Ids.newId());
            variable.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        variable.appendTail(filled);
        return filled.toString();
    }

    private static int count(String text) {
        return (int) PLACEHOLDER.matcher(text).results().count();
    }

    private static String kindAt(String text, int place) {
        return PLACEHOLDER.matcher(text).results().skip(place).findFirst().orElseThrow().group(1);
    }

    private List<String> writeRoutes() {
        return new ArrayList<>(new TreeSet<>(mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .filter(route -> !route.method().equals("GET") && !route.method().equals("HEAD")
                        && !route.method().equals("OPTIONS"))
                .map(route -> route.method() + " " + route.pattern().replaceFirst("^/new", ""))
                .toList()));
    }

    /** One of each resource an id can name, created through the routes by the organisation of {@code key}. */
    @SuppressWarnings("unchecked")
    private Map<String, String> resources(String key, String userId) {
        Map<String, String> ids = new LinkedHashMap<>();
        Map<String, Object> project = createProject(key, "Oracle " + Ids.newId(), "en-US");
        String projectId = (String) project.get("_id");
        ids.put("projectId", projectId);
        ids.put("localeId", (String) project.get("primaryLocaleReference"));
        ids.put("otherLocaleId", (String) createLocale(key, Map.of("projectId", projectId, "name", "German",
                "nluLanguage", "de-DE")).get("_id"));
        String flowId = created(key, HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", "Main"));
        ids.put("flowId", flowId);
        String intents = "/v2.0/flows/" + flowId + "/intents";
        String intentId = created(key, HttpMethod.POST, intents, Map.of("name", "Greeting"));
        ids.put("intentId", intentId);
        ids.put("otherIntentId", created(key, HttpMethod.POST, intents, Map.of("name", "Farewell")));
        ids.put("sentenceId", created(key, HttpMethod.POST, intents + "/" + intentId + "/sentences",
                Map.of("text", "hello there", "localeId", ids.get("localeId"))));
        ids.put("stateId", created(key, HttpMethod.POST, "/v2.0/flows/" + flowId + "/states",
                Map.of("name", "Start", "intentIds", List.of(intentId))));
        ids.put("slotFillerId", created(key, HttpMethod.POST, "/v2.0/flows/" + flowId + "/slotfillers",
                Map.of("name", "Zip", "type", "regex", "regex", "^[0-9]{5}$")));
        ids.put("functionId", created(key, HttpMethod.POST, "/v2.0/functions",
                Map.of("projectId", projectId, "name", "F", "code", "return 1;")));
        ids.put("instanceId", (String) json(send(HttpMethod.POST, "/v2.0/functions/" + ids.get("functionId") + "/trigger",
                key, Map.of()), 202).get("functionInstanceId"));
        // its run ends before any request is counted: its events must not look like a request's
        SnapshotWorkSupport.eventually(() -> List.of("done", "error", "cancelled").contains(jdbc.queryForList(
                "SELECT status FROM task_run WHERE parameters::text LIKE ?", String.class,
                "%" + ids.get("instanceId") + "%").stream().findFirst().orElse("")), "the run of " + ids.get("instanceId"));
        ids.put("snippetId", created(key, HttpMethod.POST, "/v2.0/projects/" + projectId + "/snippets",
                Map.of("label", "L", "type", "custom", "script", "x")));
        String storeId = created(key, HttpMethod.POST, "/v2.0/knowledgestores",
                Map.of("projectId", projectId, "name", "FAQ", "language", "en-US"));
        ids.put("knowledgeStoreId", storeId);
        Map<String, Object> source = json(send(HttpMethod.POST, "/v2.0/knowledgestores/" + storeId + "/sources", key,
                Map.of("name", "Manual", "type", "manual")), 201);
        Object record = source.containsKey("knowledgeSource") ? source.get("knowledgeSource") : source;
        ids.put("sourceId", (String) ((Map<String, Object>) record).get("_id"));
        ids.put("chunkId", created(key, HttpMethod.POST, "/v2.0/knowledgestores/" + storeId + "/sources/"
                + ids.get("sourceId") + "/chunks", Map.of("text", "We open at nine.")));
        // no learning sentence exists here: one id per organisation keeps the answers to compare free of random ids
        ids.put("learningSentenceId", Ids.newId());
        ids.put("yesNoIntentId", YesNoIntentId.of(ids.get("localeId"), YesNoKind.YES).value());
        ids.put("apiKeyId", (String) json(send(HttpMethod.POST, "/v2.0/users/me/apikeys", key, Map.of()), 201).get("_id"));
        // a colleague, not the caller: the user routes change and delete it
        ids.put("userId", created(key, HttpMethod.POST, "/v2.0/users",
                Map.of("email", "colleague-" + Ids.newId() + "@example.com")));
        Map<String, Object> task = json(send(HttpMethod.POST, "/v2.0/snapshots", key,
                Map.of("projectId", projectId, "name", "S")), 202);
        ids.put("taskId", (String) task.get("_id"));
        ids.put("snapshotId", (String) ((Map<String, Object>) task.get("parameters")).get("snapshotId"));
        SnapshotWorkSupport.eventually(() -> "done".equals(jdbc.queryForList(
                "SELECT status FROM task_run WHERE task_id = ?", String.class, ids.get("taskId")).stream()
                .findFirst().orElse(null)), "the snapshot of " + projectId);
        return ids;
    }

    private String created(String key, HttpMethod method, String uri, Map<String, Object> body) {
        return (String) json(send(method, uri, key, body), 201).get("_id");
    }
}
