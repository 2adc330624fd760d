package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.HostileCorpus;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * The protocol's edges on every route of the query service, generated from its handler mappings (a new route is
 * covered the day it is added): an Accept of more than 50 media types, a repeated parameter, a hostile sort or filter
 * on every list, an asOf that is no moment on every single read, numbers in other scripts' digits, a position beyond
 * the head of the log. Each is a 4xx problem with every field of the shape, naming what was wrong.
 */
@SuppressWarnings("unchecked")
class ProtocolEdgesTest extends QueryTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Routes whose GET is not a read of one resource: asOf means nothing there (each says why). */
    private static final Set<String> NOT_SINGLE_READS = Set.of(
            "/new/health", "/new/health/ready",                 // liveness and readiness
            "/new/openapi.json",                                // the API's description, of no resource
            "/new/v2.0/eventlog",                               // a stream of the log itself, from a position
            "/new/v3.0/callcounter");                           // a report over days it names itself

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    private Caller caller;
    private Project project;
    private List<HostileCorpus.Route> routes;

    @BeforeEach
    void givenAnOrganisationWithAProjectAndTheRouteTable() {
        caller = newOrganisation();
        project = project(caller, "Edges", 1);
        routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream()).distinct().toList();
        assertThat(routes).hasSizeGreaterThan(50);
    }

    /** The route with every path variable an id of 24 [a-z0-9] (the voice assistant: the one there is). */
    private String concrete(HostileCorpus.Route route) {
        return route.pattern().replace("{voiceAssistant}", "alexa").replaceAll("\\{[^}]+}", project.id());
    }

    private EntityExchangeResult<byte[]> send(String method, String pathAndQuery, Map<String, String> headers) {
        // encoded as given: the test's %-sequences must reach the server unchanged
        URI uri = URI.create("http://localhost:" + environment.getProperty("local.server.port") + pathAndQuery);
        var request = http.method(org.springframework.http.HttpMethod.valueOf(method)).uri(uri)
                .header("X-API-Key", caller.apiKey());
        headers.forEach(request::header);
        if (Set.of("POST", "PUT", "PATCH").contains(method)) {
            request.header("Content-Type", "application/json").bodyValue("{}");
        }
        return request.exchange().expectBody().returnResult();
    }

    /** A problem body of {@code status} with every field of the shape; its details. */
    private static Map<String, Object> problem(EntityExchangeResult<byte[]> result, int status, String what) {
        String body = result.getResponseBody() == null ? "" : new String(result.getResponseBody());
        assertThat(result.getStatus().value()).as("%s: %s", what, body).isEqualTo(status);
        Map<String, Object> problem = JSON.readValue(body, Map.class);
        assertThat(problem).as(what).containsKeys("type", "title", "status", "detail", "instance", "code", "traceId",
                "details");
        assertThat(problem.get("instance")).as(what).isEqualTo(result.getUrl().getRawPath());
        return problem;
    }

    /** The GET routes that are lists: those whose limit is checked as a list's is (found, not listed by hand). */
    private List<HostileCorpus.Route> lists() {
        List<HostileCorpus.Route> lists = new ArrayList<>();
        for (HostileCorpus.Route route : routes) {
            if (!route.method().equals("GET")) {
                continue;
            }
            var result = send("GET", concrete(route) + "?projectId=" + project.id() + "&resourceType=flow&limit=0",
                    Map.of());
            String body = result.getResponseBody() == null ? "" : new String(result.getResponseBody());
            if (result.getStatus().value() == 400 && body.contains("\"details\":{\"limit\"")) {
                lists.add(route);
            }
        }
        // every list of today (27) is found; fewer means lists stopped being recognised, and went untested
        assertThat(lists).hasSizeGreaterThanOrEqualTo(27);
        return lists;
    }

    @Test
    void givenEveryRoute_whenAcceptListsMoreThan50MediaTypes_then406SayingWhatIsAllowed() {
        String accept = String.join(", ", Collections.nCopies(51, "application/json"));
        for (HostileCorpus.Route route : routes) {
            // when
            var result = send(route.method(), concrete(route), Map.of("Accept", accept));
            // then
            if (route.method().equals("HEAD")) {
                assertThat(result.getStatus().value()).as(route.toString()).isEqualTo(406);
                continue;
            }
            Map<String, Object> problem = problem(result, 406, route.toString());
            assertThat((String) problem.get("detail")).contains("51 media types").contains("application/json");
        }
    }

    @Test
    void givenEveryGetRoute_whenAParameterIsRepeated_then400NamingIt() {
        for (HostileCorpus.Route route : routes) {
            if (!route.method().equals("GET")) {
                continue;
            }
            for (String query : List.of("projectId=" + project.id() + "&projectId=" + caller.organisationId(),
                    "from=1&from=2", "limit=5&limit=5", "asOf=1&asOf=2")) {
                // when
                var result = send("GET", concrete(route) + "?" + query, Map.of());
                // then
                Map<String, Object> problem = problem(result, 400, route + "?" + query);
                assertThat((Map<String, Object>) problem.get("details")).as(route + "?" + query)
                        .containsKey(query.substring(0, query.indexOf('=')));
                assertThat((String) problem.get("detail")).contains("was given 2 times");
            }
        }
    }

    @Test
    void givenEveryList_whenSortOrFilterIsHostile_then400NamingTheParameter() {
        for (HostileCorpus.Route list : lists()) {
            for (String query : List.of("sort=,", "sort=%2C%2C", "sort=", "sort=:asc", "sort=name%00", "sort=createdAt,",
                    "filter=%00", "filter=a%00b", "limit=%D9%A1", "skip=%EF%BC%91")) {
                String parameter = query.substring(0, query.indexOf('='));
                // when
                var result = send("GET", concrete(list) + "?projectId=" + project.id() + "&resourceType=flow&"
                        + query, Map.of());
                // then
                Map<String, Object> problem = problem(result, 400, list + "?" + query);
                assertThat((Map<String, Object>) problem.get("details")).as(list + "?" + query).containsKey(parameter);
            }
        }
    }

    @Test
    void givenEverySingleRead_whenAsOfIsNoMoment_then400NamingAsOf() {
        int checked = 0;
        List<HostileCorpus.Route> lists = lists();
        for (HostileCorpus.Route route : routes) {
            if (!route.method().equals("GET") || NOT_SINGLE_READS.contains(route.pattern()) || lists.contains(route)) {
                continue;
            }
            // "abc", Arabic-Indic 1 and full-width 1: no position (ASCII digits) and no ISO-8601 time
            for (String asOf : List.of("abc", "%D9%A1", "%EF%BC%91")) {
                var result = send("GET", concrete(route) + "?asOf=" + asOf, Map.of());
                int status = result.getStatus().value();
                if (status == 403 || status == 501) {
                    // refused before any parameter matters: a system administrator's route, or one not offered
                    continue;
                }
                Map<String, Object> problem = problem(result, 400, route + "?asOf=" + asOf);
                assertThat((Map<String, Object>) problem.get("details")).as(route + "?asOf=" + asOf).containsKey("asOf");
                checked++;
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(3 * 18);
    }

    @Test
    void givenAPositionInOtherScriptsDigits_whenReadingTheEventLog_then400NamingFrom() {
        for (String from : List.of("%D9%A1", "%EF%BC%91", "+1", "1%20")) {
            // when
            var result = send("GET", "/new/v2.0/eventlog?from=" + from, Map.of("Accept", "application/x-ndjson"));
            // then
            Map<String, Object> problem = problem(result, 400, "from=" + from);
            assertThat((Map<String, Object>) problem.get("details")).containsKey("from");
        }
    }

    @Test
    void givenAnEventPositionBeyondTheHeadOfTheLog_whenReading_then400AtOnceSayingTheHead() {
        // given
        long head = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        long started = System.nanoTime();
        // when
        var result = send("GET", "/new/v2.0/projects/" + project.id(),
                Map.of("X-Event-Position", Long.toString(head + 1_000_000)));
        long millis = (System.nanoTime() - started) / 1_000_000;
        // then: refused without waiting for the 5 s bound
        Map<String, Object> problem = problem(result, 400, "far X-Event-Position");
        assertThat((String) problem.get("detail")).contains("beyond the head of the event log");
        assertThat(((Number) ((Map<String, Object>) problem.get("details")).get("head")).longValue())
                .isGreaterThanOrEqualTo(head);
        System.out.println("far X-Event-Position refused in " + millis + " ms");
        assertThat(millis).isLessThan(2_500);
        // and the project's own position is still waited for and reached
        assertThat(send("GET", "/new/v2.0/projects/" + project.id(),
                Map.of("X-Event-Position", Long.toString(project.position()))).getStatus().value()).isEqualTo(200);
    }

    @Test
    void givenHeadersOf40KB_whenReading_thenServed() {
        // given: within the 64 KB the 431 states (Netty's default would refuse over 8 KB)
        var result = send("GET", "/new/v2.0/projects/" + project.id(), Map.of("X-Pad", "y".repeat(40_000),
                "X-Event-Position", Long.toString(project.position())));
        // then
        assertThat(result.getStatus().value()).isEqualTo(200);
    }
}
