package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.member.ProjectRoles;
import ai.convo.http.access.AccessPolicy;
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
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * The access policy against the command service's own route table: every route has a rule, and for each of the
 * client's project-wide roles every write route that role does not allow is refused with a 403 naming the roles that
 * would, storing nothing. A flow editor of one project edits its flows and nothing of another project.
 */
class AccessMatrixApiTest extends PeopleApiSupport {

    /** Routes no rule needs: the system's own (management port, system administrators) and the public ones. */
    private static final List<String> UNRULED = List.of("POST /management/v2.0/organisations",
            "POST /management/v2.0/system/createsystemmessage", "POST /management/v2.0/projections/rebuild",
            "POST /management/v2.0/projections/deadletters/{action}", "POST /management/v2.0/callrecords",
            "GET /health", "GET /health/ready", "GET /openapi.json", "GET /v2.0/system/message");

    private static final Pattern VARIABLE = Pattern.compile("\\{([A-Za-z]+)}");

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    private final AccessPolicy policy = new AccessPolicy("/new");

    List<String> routes() {
        return new ArrayList<>(new TreeSet<>(mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .filter(r -> !r.method().equals("HEAD") && !r.method().equals("OPTIONS"))
                .map(r -> r.method() + " " + r.pattern().replaceFirst("^/new", "")).toList()));
    }

    @Test
    void givenTheRouteTable_whenEachRouteIsMatched_thenEveryOneHasItsOwnRule() {
        // given
        List<String> routes = routes();
        // then
        assertThat(routes).hasSizeGreaterThan(70);
        assertThat(routes.stream().filter(route -> !UNRULED.contains(route))
                .filter(route -> {
                    AccessPolicy.Match match = policy.match(HttpMethod.valueOf(route.substring(0, route.indexOf(' '))),
                            "/new" + sample(route.substring(route.indexOf(' ') + 1)));
                    return match == null || !match.rule().path().equals(route.substring(route.indexOf(' ') + 1));
                })).isEmpty();
    }

    /** One of each resource that names a project, in a project of the bootstrap's organisation. */
    @SuppressWarnings("unchecked")
    Map<String, String> project(String key) {
        Map<String, String> ids = new LinkedHashMap<>();
        Map<String, Object> project = createProject(key, "Matrix " + Ids.newId(), "en-US");
        ids.put("projectId", (String) project.get("_id"));
        ids.put("localeId", (String) project.get("primaryLocaleReference"));
        ids.put("flowId", created(key, "/v2.0/flows", Map.of("projectId", ids.get("projectId"), "name", "Main")));
        ids.put("functionId", created(key, "/v2.0/functions", Map.of("projectId", ids.get("projectId"), "name", "F",
                "code", "return 1;")));
        ids.put("knowledgeStoreId", created(key, "/v2.0/knowledgestores", Map.of("projectId", ids.get("projectId"),
                "name", "FAQ", "language", "en-US")));
        Map<String, Object> task = send("POST", "/v2.0/snapshots", key, Map.of("projectId", ids.get("projectId"),
                "name", "S")).expectStatus().isAccepted().expectBody(Map.class).returnResult().getResponseBody();
        ids.put("taskId", (String) task.get("_id"));
        ids.put("snapshotId", (String) ((Map<String, Object>) task.get("parameters")).get("snapshotId"));
        SnapshotWorkSupport.eventually(() -> jdbc.queryForObject("SELECT count(*) FROM cmd_snapshot WHERE "
                + "snapshot_id = ?", Long.class, ids.get("snapshotId")) > 0, "the snapshot");
        return ids;
    }

    @SuppressWarnings("unchecked")
    String created(String key, String uri, Map<String, Object> body) {
        return (String) send("POST", uri, key, body).expectStatus().isCreated().expectBody(Map.class).returnResult()
                .getResponseBody().get("_id");
    }

    @Test
    @SuppressWarnings("unchecked")
    void givenAMemberWithEachProjectRole_whenSendingEveryWriteRouteTheRoleDoesNotAllow_thenA403NamingTheRolesAndNothingStored() {
        // given: a member of a project with all its kinds of resources
        Map<String, String> ids = project(ADMIN_KEY);
        String email = "matrix-" + Ids.newId() + "@example.com";
        String userId = createUser(email, "password-1234", List.of());
        String key = keyOf(email, "password-1234");
        String members = "/v2.0/projects/" + ids.get("projectId") + "/members/" + userId;
        send("POST", "/v2.0/projects/" + ids.get("projectId") + "/addprojectmember", ADMIN_KEY,
                Map.of("userId", userId)).expectStatus().isOk();
        send("POST", members + "/removerolefrommember", ADMIN_KEY, Map.of("role", "basic")).expectStatus().isOk();
        List<AccessPolicy.Rule> writes = policy.rules().stream()
                .filter(rule -> rule.scope() == AccessPolicy.Scope.PROJECT && rule.kind() == AccessPolicy.Kind.WRITE)
                .filter(rule -> routes().contains(rule.method().name() + " " + rule.path())).toList();
        assertThat(writes).hasSizeGreaterThan(50);
        List<String> findings = new ArrayList<>();
        long before = userEvents(userId);
        int refused = 0;
        // when: the member holds exactly one role at a time
        for (String role : ProjectRoles.ALL) {
            send("POST", members + "/addroletomember", ADMIN_KEY, Map.of("role", role)).expectStatus().isOk();
            long granted = writtenBy(userId);
            for (AccessPolicy.Rule rule : writes) {
                if (rule.roles().contains(role)) {
                    continue;
                }
                var result = request(rule, ids, key).expectBody(Map.class).returnResult();
                Map<String, Object> problem = result.getResponseBody();
                // then
                Object required = problem == null || !(problem.get("details") instanceof Map<?, ?> details) ? null
                        : details.get("requiredRoles");
                if (result.getStatus().value() != 403 || !new ArrayList<>(rule.roles()).equals(required)
                        || !String.valueOf(problem.get("detail")).contains(rule.roles().iterator().next())) {
                    findings.add(role + " → " + rule.method() + " " + rule.path() + ": " + result.getStatus() + " "
                            + problem);
                }
                refused++;
            }
            if (writtenBy(userId) != granted) {
                findings.add(role + ": the member's refused writes stored events");
            }
            send("POST", members + "/removerolefrommember", ADMIN_KEY, Map.of("role", role)).expectStatus().isOk();
        }
        assertThat(findings).isEmpty();
        assertThat(refused).isGreaterThan(38 * 40);
        // only the grants and revocations were stored on the member: two events per role
        assertThat(userEvents(userId) - before).isEqualTo(2L * ProjectRoles.ALL.size());
    }

    WebTestClient.ResponseSpec request(AccessPolicy.Rule rule, Map<String, String> ids, String key) {
        Matcher variable = VARIABLE.matcher(rule.path());
        StringBuilder path = new StringBuilder();
        while (variable.find()) {
            variable.appendReplacement(path, ids.getOrDefault(variable.group(1), Ids.newId()));
        }
        variable.appendTail(path);
        String uri = path + (rule.projectFrom().startsWith("query:") ? "?projectId=" + ids.get("projectId") : "");
        String body = rule.projectFrom().startsWith("body:") ? "{\"projectId\":\"" + ids.get("projectId") + "\"}" : "{}";
        return http.method(rule.method()).uri(uri).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body.getBytes(StandardCharsets.UTF_8)).exchange();
    }

    @Test
    void givenAFlowEditorOfOneProject_whenEditing_thenItsFlowsChangeAndNothingOfAnotherProjectIsReachable() {
        // given
        Map<String, String> a = project(ADMIN_KEY);
        Map<String, String> b = project(ADMIN_KEY);
        String email = "editor-" + Ids.newId() + "@example.com";
        String userId = createUser(email, "password-1234", List.of());
        String key = keyOf(email, "password-1234");
        send("POST", "/v2.0/projects/" + a.get("projectId") + "/addprojectmember", ADMIN_KEY, Map.of("userId", userId))
                .expectStatus().isOk();
        send("POST", "/v2.0/projects/" + a.get("projectId") + "/members/" + userId + "/addroletomember", ADMIN_KEY,
                Map.of("role", "flowEditor")).expectStatus().isOk();
        // when / then: A's flows
        send("PATCH", "/v2.0/flows/" + a.get("flowId"), key, Map.of("name", "Renamed")).expectStatus().isOk();
        send("POST", "/v2.0/flows", key, Map.of("projectId", a.get("projectId"), "name", "Second"))
                .expectStatus().isCreated();
        send("POST", "/v2.0/flows/" + a.get("flowId") + "/intents", key, Map.of("name", "Greeting"))
                .expectStatus().isCreated();
        // but not A's locales, functions or settings
        send("PATCH", "/v2.0/locales/" + a.get("localeId"), key, Map.of("name", "x")).expectStatus().isForbidden();
        send("DELETE", "/v2.0/functions/" + a.get("functionId"), key, null).expectStatus().isForbidden();
        send("PATCH", "/v2.0/projects/" + a.get("projectId"), key, Map.of("name", "x")).expectStatus().isForbidden();
        // and of B nothing: the same 404 as for what does not exist
        long before = writtenBy(userId);
        String missing = Ids.newId();
        assertThat(answer(send("PATCH", "/v2.0/flows/" + b.get("flowId"), key, Map.of("name", "x")), b.get("flowId")))
                .isEqualTo(answer(send("PATCH", "/v2.0/flows/" + missing, key, Map.of("name", "x")), missing))
                .startsWith("404");
        assertThat(answer(send("POST", "/v2.0/flows", key, Map.of("projectId", b.get("projectId"), "name", "Mine")),
                b.get("projectId"))).isEqualTo(answer(send("POST", "/v2.0/flows", key, Map.of("projectId", missing,
                "name", "Mine")), missing)).startsWith("404");
        send("DELETE", "/v2.0/projects/" + b.get("projectId"), key, null).expectStatus().isNotFound();
        assertThat(writtenBy(userId)).isEqualTo(before);
    }

    @Test
    void givenAMemberLimitedToOneLocale_whenWritingSentences_thenOnlyThatLocaleIsTakenAndNoIntentIsDeleted() {
        // given
        Map<String, String> ids = project(ADMIN_KEY);
        String otherLocale = created(ADMIN_KEY, "/v2.0/locales", Map.of("projectId", ids.get("projectId"),
                "name", "German", "nluLanguage", "de-DE"));
        String intentId = created(ADMIN_KEY, "/v2.0/flows/" + ids.get("flowId") + "/intents", Map.of("name", "Hi"));
        String email = "locale-" + Ids.newId() + "@example.com";
        String userId = createUser(email, "password-1234", List.of());
        String key = keyOf(email, "password-1234");
        String member = "/v2.0/projects/" + ids.get("projectId") + "/members/" + userId;
        send("POST", "/v2.0/projects/" + ids.get("projectId") + "/addprojectmember", ADMIN_KEY, Map.of("userId", userId))
                .expectStatus().isOk();
        send("POST", member + "/addroletomember", ADMIN_KEY, Map.of("role", "intents")).expectStatus().isOk();
        send("PATCH", member, ADMIN_KEY, Map.of("allowedLocales", List.of(Map.of("localeId", ids.get("localeId")))))
                .expectStatus().isOk();
        String sentences = "/v2.0/flows/" + ids.get("flowId") + "/intents/" + intentId + "/sentences";
        long before = writtenBy(userId);
        // when / then
        send("POST", sentences, key, Map.of("text", "hallo", "localeId", otherLocale)).expectStatus().isForbidden()
                .expectBody().jsonPath("$.details.refusedLocales[0]").isEqualTo(otherLocale);
        // deleting the intent, alone or in a batch, deletes its sentences in every locale: refused too
        String intent = "/v2.0/flows/" + ids.get("flowId") + "/intents/" + intentId;
        send("DELETE", intent, key, null).expectStatus().isForbidden()
                .expectBody().jsonPath("$.details.allowedLocales[0]").isEqualTo(ids.get("localeId"))
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("every locale"));
        send("PATCH", "/v2.0/flows/" + ids.get("flowId") + "/intents", key, Map.of("operations",
                List.of(Map.of("op", "delete", "id", intentId)))).expectStatus().isForbidden();
        assertThat(writtenBy(userId)).isEqualTo(before);
        send("POST", sentences, key, Map.of("text", "hello", "localeId", ids.get("localeId")))
                .expectStatus().isCreated();
    }

    @Test
    void givenAMemberWithTheBasicRole_whenHostileRequestsArriveOnEveryRoute_thenNo5xxAndNothingStoredByARefusal() {
        // given: the requests the hostile corpus sends, as a member of one project instead of an administrator
        Map<String, String> ids = project(ADMIN_KEY);
        String email = "hostile-" + Ids.newId() + "@example.com";
        String userId = createUser(email, "password-1234", List.of());
        String key = keyOf(email, "password-1234");
        send("POST", "/v2.0/projects/" + ids.get("projectId") + "/addprojectmember", ADMIN_KEY,
                Map.of("userId", userId)).expectStatus().isOk();
        List<HostileCorpus.Route> routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .distinct().toList();
        List<HostileCorpus.Probe> probes = HostileCorpus.probes(routes, 20261128L, 4, "", Map.of("X-API-Key", key));
        // when
        HostileCorpus.Tally tally = HostileCorpus.run(probes,
                Integer.parseInt(environment.getProperty("local.server.port")), () -> writtenBy(userId));
        // then
        tally.findings.forEach(f -> System.out.println("FINDING " + f));
        assertThat(tally.requests).isEqualTo(probes.size());
        assertThat(tally.findings).isEmpty();
    }

    /**
     * The newest position the member wrote at: what a refusal must leave alone. The whole store is no measure here:
     * tasks that earlier tests of this context started may still be writing as the administrator.
     */
    private long writtenBy(String userId) {
        return jdbc.queryForObject("SELECT coalesce(max(position), 0) FROM principal_write WHERE principal_key = ?",
                Long.class, userId);
    }

    /** The events of the member's own aggregate (memberships and their roles live there). */
    private long userEvents(String userId) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?", Long.class,
                userId);
    }

    String answer(WebTestClient.ResponseSpec spec, String id) {
        var result = spec.expectBody(String.class).returnResult();
        return result.getStatus().value() + " " + String.valueOf(result.getResponseBody()).replace(id, "<ID>")
                .replaceAll("\"(traceId|instance)\":\"[^\"]*\"", "");
    }

    /** The route's pattern with each variable a sample id, as a request would name it. */
    static String sample(String pattern) {
        return VARIABLE.matcher(pattern).replaceAll(m -> m.group(1).equals("voiceAssistant") ? "alexa"
                : m.group(1).equals("action") ? "retry" : "aaaaaaaaaaaaaaaaaaaaaaaa");
    }
}
