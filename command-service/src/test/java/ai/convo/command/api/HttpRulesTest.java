package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/** The cross-cutting rules, seen from a client of the command service. */
@ExtendWith(OutputCaptureExtension.class)
class HttpRulesTest extends ApiTestBase {

    private String primaryLocale() {
        return (String) createProject(ADMIN_KEY, "Media", "en-US").get("primaryLocaleReference");
    }

    @Test
    void everyMediaTypeOfTheLocaleUpdate() {
        String locale = primaryLocale();
        String xml = http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.APPLICATION_XML).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Xml")).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<locale>").contains("<name>Xml</name>", "<_id>" + locale + "</_id>");

        http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.TEXT_XML).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of()).exchange()
                .expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_XML);

        String csv = http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.parseMediaType("text/csv")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "=HYPERLINK(\"x\")")).exchange()
                .expectStatus().isOk().expectHeader().contentTypeCompatibleWith("text/csv")
                .expectBody(String.class).returnResult().getResponseBody();
        String[] lines = csv.split("\r\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("_id,referenceId,name,primary,nluLanguage");
        assertThat(lines[1]).contains("\"'=HYPERLINK(\"\"x\"\")\"");

        http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.parseMediaType("application/hal+json")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._links.self.href").exists();
    }

    @Test
    void anUnacceptableMediaTypeIs406AndStoresNothing() {
        String locale = primaryLocale();
        long before = eventCount();
        http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.IMAGE_PNG).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Never")).exchange()
                .expectStatus().isEqualTo(406)
                .expectHeader().contentType("application/problem+json")
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("text/csv"));
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void aBodyOverTheLimitIs413() {
        String locale = primaryLocale();
        byte[] huge = ("{\"name\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(huge).exchange()
                .expectStatus().isEqualTo(413)
                .expectBody().jsonPath("$.status").isEqualTo(413).jsonPath("$.code").isEqualTo("1000");
    }

    @Test
    void unknownRoutesAndMethodsAreProblems() {
        http.get().uri("/v2.0/nothing-here").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound()
                .expectHeader().valueEquals("Access-Control-Allow-Origin", "*")
                .expectBody()
                .jsonPath("$.type").isEqualTo("Not Found")
                .jsonPath("$.title").isEqualTo("Not Found Error")
                .jsonPath("$.instance").isEqualTo("/new/v2.0/nothing-here")
                .jsonPath("$.traceId").exists()
                .jsonPath("$.logLevel").exists();
        http.put().uri("/v2.0/locales/{id}", "aaaaaaaaaaaaaaaaaaaaaaaa").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isEqualTo(405)
                .expectHeader().exists("Allow")
                .expectBody().jsonPath("$.logLevel").doesNotExist();
        // Outside the base path too: still a problem body with CORS.
        http.mutate().baseUrl(http.get().uri("").exchange().returnResult(String.class).getUrl().toString()
                        .replace("/new", "")).build()
                .get().uri("/elsewhere").exchange().expectStatus().isUnauthorized()
                .expectHeader().valueEquals("Access-Control-Allow-Origin", "*");
    }

    @Test
    void theTraceIdOfAProblemIsAlsoAHeader() {
        var result = http.get().uri("/v2.0/nothing").header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound().expectBody(Map.class).returnResult();
        assertThat(result.getResponseHeaders().getFirst("X-Trace-Id")).isEqualTo(result.getResponseBody().get("traceId"));
    }

    @Test
    void preflightsAreAnsweredWithoutCredentials() {
        http.options().uri("/v2.0/locales/{id}", "aaaaaaaaaaaaaaaaaaaaaaaa")
                .header("Origin", "https://app.example.com")
                .header("Access-Control-Request-Method", "PATCH")
                .header("Access-Control-Request-Headers", "x-api-key, content-type")
                .exchange()
                .expectStatus().isNoContent()
                .expectHeader().valueEquals("Access-Control-Allow-Origin", "*")
                .expectHeader().value("Access-Control-Allow-Methods", m -> assertThat(m).contains("PATCH"))
                .expectHeader().valueEquals("Access-Control-Allow-Headers", "x-api-key, content-type");
    }

    @Test
    void theCorsHeaderIsOnSuccessesAndOnErrors() {
        String locale = primaryLocale();
        http.patch().uri("/v2.0/locales/{id}", locale).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange()
                .expectStatus().isOk().expectHeader().valueEquals("Access-Control-Allow-Origin", "*");
        http.method(HttpMethod.PATCH).uri("/v2.0/locales/{id}", locale).exchange()
                .expectStatus().isUnauthorized().expectHeader().valueEquals("Access-Control-Allow-Origin", "*");
    }

    @Test
    void aQueryApiKeyNeverReachesTheLog(CapturedOutput output) {
        String locale = primaryLocale();
        http.patch().uri("/v2.0/locales/{id}?api_key={key}", locale, ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Logged?")).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$._links.self.href").value(href -> assertThat((String) href).doesNotContain(ADMIN_KEY));
        http.patch().uri("/v2.0/locales/{id}?api_key={key}", "zzzzzzzzzzzzzzzzzzzzzzzz", "wrong-key-in-query")
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange()
                .expectStatus().isUnauthorized();
        assertThat(output.getAll()).doesNotContain(ADMIN_KEY).doesNotContain("wrong-key-in-query");
    }

    @Test
    void aServerFaultIsA500WithoutInternals() {
        // A GET body is ignored, never a 4xx; and nothing in a problem reveals classes or stack traces.
        String body = http.get().uri("/v2.0/nothing").header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNotFound().expectBody(String.class).returnResult().getResponseBody();
        assertThat(body).doesNotContain("Exception").doesNotContain("at ai.convo");
    }

    @Test
    void givenAUriOrHeadersOverNettysLimits_whenSentToTheServiceItself_thenProblemBodiesToo() throws Exception {
        int port = Integer.parseInt(environment.getProperty("local.server.port"));
        for (String[] refused : new String[][] {
                {"GET /new/v2.0/projects?filter=" + "x".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", "414"},
                {"GET /new/v2.0/projects HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(100_000) + "\r\n\r\n", "431"}}) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(refused[0].getBytes(StandardCharsets.ISO_8859_1));
                String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(response).startsWith("HTTP/1.1 " + refused[1] + " ");
                assertThat(response.toLowerCase(java.util.Locale.ROOT)).contains("content-type: application/problem+json",
                        "access-control-allow-origin: *", "\"status\":" + refused[1]);
            }
        }
    }
}
