package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.testing.HostileCorpus;
import java.net.URI;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * The protocol's edges on every route of the command service, generated from its handler mappings: an Accept of more
 * than 50 media types (406), a repeated query parameter (400), and on every upload a second file or an oversized form
 * field (400 naming it and the limit). Each is a problem with every field of the shape, and nothing is stored.
 */
@SuppressWarnings("unchecked")
class ProtocolEdgesApiTest extends IntentApiSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    private List<HostileCorpus.Route> routes() {
        List<HostileCorpus.Route> routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream()).distinct()
                .toList();
        assertThat(routes).hasSizeGreaterThan(60);
        return routes;
    }

    private EntityExchangeResult<byte[]> send(HostileCorpus.Route route, String query, Map<String, String> headers) {
        String path = route.pattern().replace("{voiceAssistant}", "alexa").replaceAll("\\{[^}]+}", Ids.newId());
        var request = http.method(HttpMethod.valueOf(route.method()))
                .uri(URI.create("http://localhost:" + environment.getProperty("local.server.port") + path + query))
                .header("X-API-Key", ADMIN_KEY);
        headers.forEach(request::header);
        if (Set.of("POST", "PUT", "PATCH").contains(route.method())) {
            return request.contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\":\"n\"}").exchange()
                    .expectBody().returnResult();
        }
        return request.exchange().expectBody().returnResult();
    }

    private static Map<String, Object> problem(EntityExchangeResult<byte[]> result, int status, String what) {
        String body = result.getResponseBody() == null ? "" : new String(result.getResponseBody());
        assertThat(result.getStatus().value()).as("%s: %s", what, body).isEqualTo(status);
        Map<String, Object> problem = JSON.readValue(body, Map.class);
        assertThat(problem).as(what).containsKeys("type", "title", "status", "detail", "instance", "code", "traceId",
                "details");
        return problem;
    }

    @Test
    void givenEveryRoute_whenAcceptListsMoreThan50MediaTypes_then406AndNothingIsStored() {
        // given
        String accept = String.join(",", Collections.nCopies(51, "application/json"));
        long before = eventCount();
        for (HostileCorpus.Route route : routes()) {
            // when
            var result = send(route, "", Map.of("Accept", accept));
            // then
            Map<String, Object> problem = problem(result, 406, route.toString());
            assertThat((String) problem.get("detail")).contains("51 media types");
        }
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenEveryRoute_whenAQueryParameterIsRepeated_then400NamingItAndNothingIsStored() {
        // given
        long before = eventCount();
        for (HostileCorpus.Route route : routes()) {
            for (String query : List.of("?projectId=" + Ids.newId() + "&projectId=" + Ids.newId(), "?mode=a&mode=a")) {
                // when
                var result = send(route, query, Map.of());
                // then
                Map<String, Object> problem = problem(result, 400, route + query);
                assertThat((Map<String, Object>) problem.get("details")).as(route + query)
                        .containsKey(query.substring(1, query.indexOf('=')));
            }
        }
        assertThat(eventCount()).isEqualTo(before);
    }

    /** The multipart routes (as UnstorableTextApiTest names them: .../upload and .../import). */
    private List<HostileCorpus.Route> uploads() {
        List<HostileCorpus.Route> uploads = routes().stream().filter(route -> route.method().equals("POST"))
                .filter(route -> route.pattern().endsWith("/upload") || route.pattern().endsWith("/import")).toList();
        assertThat(uploads).hasSizeGreaterThanOrEqualTo(2);
        return uploads;
    }

    private static String fill(HostileCorpus.Route route, Flow flow, String knowledgeStoreId) {
        return route.pattern().substring("/new".length()).replace("{flowId}", flow.id())
                .replace("{knowledgeStoreId}", knowledgeStoreId).replaceAll("\\{[^}]+}", Ids.newId());
    }

    @SuppressWarnings("unchecked")
    private String knowledgeStoreOf(Flow flow) {
        return (String) json(http.post().uri("/v2.0/knowledgestores").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", flow.projectId(), "name",
                        "S" + Ids.newId(), "language", "en-US")).exchange(), 201).get("_id");
    }

    private EntityExchangeResult<byte[]> upload(String uri, MultipartBodyBuilder parts) {
        return http.post().uri(uri).header("X-API-Key", ADMIN_KEY).contentType(MediaType.MULTIPART_FORM_DATA)
                .body(BodyInserters.fromMultipartData(parts.build())).exchange().expectBody().returnResult();
    }

    private static ByteArrayResource file(String name, String content) {
        return new ByteArrayResource(content.getBytes()) {
            @Override
            public String getFilename() {
                return name;
            }
        };
    }

    @Test
    void givenEveryUpload_whenASecondFileOrAnOversizedFieldIsSent_then400NamingItAndTheLimit() {
        // given
        Flow flow = newFlow();
        String store = knowledgeStoreOf(flow);
        long before = eventCount();
        for (HostileCorpus.Route route : uploads()) {
            String uri = fill(route, flow, store);
            // when: two files
            MultipartBodyBuilder twoFiles = new MultipartBodyBuilder();
            twoFiles.part("file", file("a.txt", "a"));
            twoFiles.part("file", file("b.txt", "b"));
            Map<String, Object> problem = problem(upload(uri, twoFiles), 400, route + " two files");
            // then
            assertThat((Map<String, Object>) problem.get("details")).as(route.toString()).containsKey("file");
            assertThat((String) problem.get("detail")).contains("file was given 2 times");

            // given: every field the route requires besides the file (named by its refusal of a form without them;
            // a form of nothing but a file is a whole upload on some routes)
            MultipartBodyBuilder noFile = new MultipartBodyBuilder();
            noFile.part("fileName", "a.txt");
            Map<String, Object> required = new java.util.HashMap<>((Map<String, Object>) problem(upload(uri, noFile), 400,
                    route + " no file").get("details"));
            assertThat(required).as(route.toString()).containsKey("file");
            required.remove("file");
            MultipartBodyBuilder oversized = new MultipartBodyBuilder();
            oversized.part("file", file("a.txt", "a"));
            required.keySet().forEach(name -> oversized.part(name, flow.primaryLocaleId()));
            oversized.part("fileName", "n".repeat(1_001));
            // when: a field over the limit
            problem = problem(upload(uri, oversized), 400, route + " oversized field");
            // then: the field and its real limit, not the body's
            assertThat((Map<String, Object>) problem.get("details")).as(route.toString()).containsKey("fileName");
            assertThat((String) problem.get("detail")).contains("1000 bytes").doesNotContain("2 MiB");
        }
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenHeadersOf40KB_whenWriting_thenServed() {
        // given: within the 64 KB the 431 states (Netty's default would refuse over 8 KB)
        Map<String, Object> created = json(http.post().uri("/v2.0/projects").header("X-API-Key", ADMIN_KEY)
                .header("X-Pad", "y".repeat(40_000)).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "P" + Ids.newId(), "locale", "en-US")).exchange(), 201);
        // then
        assertThat(created).containsKey("_id");
    }
}
