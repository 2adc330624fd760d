package ai.convo.http.media;

import ai.convo.http.problem.ApiProblem;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.web.TraceIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import tools.jackson.databind.JsonNode;

class ProblemWriterTest {

    private static MockServerWebExchange exchange(String path, String accept) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get(path);
        if (accept != null) {
            request.header(HttpHeaders.ACCEPT, accept);
        }
        return MockServerWebExchange.from(request.build());
    }

    private static String written(MockServerWebExchange exchange, ApiProblem problem) {
        ProblemWriter.write(exchange, problem).block();
        return exchange.getResponse().getBodyAsString().block();
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    @Test
    void givenABadRequest_whenBuildingTheBody_thenEveryFieldInOrderAndNoLogLevel() {
        // given
        MockServerWebExchange exchange = exchange("/new/v2.0/locales/x", null);
        ApiProblem problem = ApiProblem.invalidParameter("limit", "limit must be an integer from 1 to 100; got 0.");

        // when
        Map<String, Object> body = ProblemWriter.body(exchange, problem);

        // then
        assertThat(body.keySet()).containsExactly("type", "title", "status", "detail", "instance", "code", "traceId",
                "details");
        assertThat(body).containsEntry("type", "Bad Request")
                .containsEntry("title", "Bad Request Error")
                .containsEntry("status", 400)
                .containsEntry("detail", "limit must be an integer from 1 to 100; got 0.")
                .containsEntry("instance", "/new/v2.0/locales/x")
                .containsEntry("code", "1000")
                .containsEntry("details", Map.of("limit", "limit must be an integer from 1 to 100; got 0."));
        assertThat((String) body.get("traceId")).matches("[0-9a-f]{32}");
    }

    @Test
    void givenAnyProblem_whenBuildingTheBody_thenTheTraceIdIsAlsoTheResponseHeader() {
        // given
        MockServerWebExchange exchange = exchange("/new/v2.0/locales/x", null);

        // when
        Map<String, Object> body = ProblemWriter.body(exchange, ApiProblem.conflict("Busy."));

        // then
        assertThat(exchange.getResponse().getHeaders().getFirst(TraceIds.HEADER)).isEqualTo(body.get("traceId"));
        assertThat(TraceIds.of(exchange)).isEqualTo(body.get("traceId"));
    }

    @Test
    void givenANotFound_whenBuildingTheBody_thenLogLevelIsPresent() {
        // given
        MockServerWebExchange exchange = exchange("/new/v2.0/locales/x", null);

        // when
        Map<String, Object> body = ProblemWriter.body(exchange, ApiProblem.notFound("No such locale."));

        // then
        assertThat(body).containsKey("logLevel").containsEntry("status", 404).containsEntry("title", "Not Found Error")
                .containsEntry("type", "Not Found").containsEntry("code", "1000");
        assertThat(body.get("logLevel")).isInstanceOf(String.class);
        assertThat((String) body.get("logLevel")).isNotBlank();
    }

    @ParameterizedTest
    @CsvSource({
            "400, Bad Request, Bad Request Error, 1000",
            "401, Unauthorized, Unauthorized Error, 401",
            "402, Payment Required, Payment Required Error, 402",
            "403, Forbidden, Forbidden Error, 1000",
            "405, Method Not Allowed, Method Not Allowed Error, 1000",
            "409, Conflict, Conflict Error, 1004",
            "413, Payload Too Large, Payload Too Large Error, 1000",
            "500, Internal Server Error, Internal Server Error, 1000",
            "501, Not Implemented, Not Implemented Error, 1009",
            "503, Service Unavailable, Service Unavailable Error, 503",
            "502, Bad Gateway, Bad Gateway Error, 1000",
            "504, Gateway Timeout, Gateway Timeout Error, 1000",
    })
    void givenAStatus_whenBuildingTheBody_thenTypeTitleAndCodeFollowTheSpecificationsTable(
            int status, String type, String title, String code) {
        // given
        ApiProblem problem = new ApiProblem(HttpStatus.valueOf(status), "Something.", Map.of());

        // when
        Map<String, Object> body = ProblemWriter.body(exchange("/p", null), problem);

        // then
        assertThat(body).containsEntry("type", type).containsEntry("title", title).containsEntry("status", status)
                .containsEntry("code", code).doesNotContainKey("logLevel");
    }

    @Test
    void givenAProblem_whenWrittenForAJsonClient_thenProblemJsonWithStatusAndBody() {
        // given
        MockServerWebExchange exchange = exchange("/new/v2.0/locales/x", "application/json");
        ApiProblem problem = ApiProblem.conflict("Locale x is the project's primary locale.");

        // when
        String text = written(exchange, problem);

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+json");
        JsonNode body = Renderer.JSON.readTree(text);
        assertThat(names(body)).containsExactly("type", "title", "status", "detail", "instance", "code", "traceId",
                "details");
        assertThat(body.get("status").intValue()).isEqualTo(409);
        assertThat(body.get("code").stringValue()).isEqualTo("1004");
        assertThat(body.get("title").stringValue()).isEqualTo("Conflict Error");
        assertThat(body.get("detail").stringValue()).isEqualTo("Locale x is the project's primary locale.");
        assertThat(body.get("instance").stringValue()).isEqualTo("/new/v2.0/locales/x");
        assertThat(body.get("details").isObject()).isTrue();
        assertThat(body.get("details").isEmpty()).isTrue();
        assertThat(body.get("traceId").stringValue())
                .isEqualTo(exchange.getResponse().getHeaders().getFirst(TraceIds.HEADER));
    }

    @Test
    void givenAProblem_whenWrittenForAnXmlClient_thenProblemXml() {
        // given
        MockServerWebExchange exchange = exchange("/new/v2.0/locales/x", "application/xml");
        ApiProblem problem = ApiProblem.invalidParameter("name", "name is too long");

        // when
        String text = written(exchange, problem);

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+xml");
        assertThat(text).startsWith("<problem><type>Bad Request</type><title>Bad Request Error</title>"
                + "<status>400</status><detail>name is too long</detail><instance>/new/v2.0/locales/x</instance>"
                + "<code>1000</code><traceId>");
        assertThat(text).endsWith("<details><name>name is too long</name></details></problem>");
    }

    @Test
    void givenTextXmlAccept_whenWritten_thenProblemXml() {
        // given
        MockServerWebExchange exchange = exchange("/p", "text/xml");

        // when
        String text = written(exchange, ApiProblem.notFound("Nothing here."));

        // then
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+xml");
        assertThat(text).startsWith("<problem>").contains("<logLevel>");
    }

    @Test
    void givenNegotiationChoseXml_whenWritten_thenProblemXmlEvenIfAcceptListsJsonToo() {
        // given
        MockServerWebExchange exchange = exchange("/p", "application/xml, application/json;q=0.5");
        assertThat(Negotiation.negotiate(exchange, ApiMedia.JSON)).isEqualTo(ApiMedia.XML);

        // when
        written(exchange, ApiProblem.badRequest("Bad."));

        // then
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+xml");
    }

    @Test
    void givenNegotiationChoseCsv_whenWritten_thenProblemJson() {
        // given
        MockServerWebExchange exchange = exchange("/p", "text/csv");
        Negotiation.negotiate(exchange, ApiMedia.JSON);

        // when
        String text = written(exchange, ApiProblem.badRequest("Bad."));

        // then
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+json");
        assertThat(Renderer.JSON.readTree(text).get("detail").stringValue()).isEqualTo("Bad.");
    }

    @Test
    void givenAnUnacceptableAccept_whenWritten_thenProblemJson() {
        // given
        MockServerWebExchange exchange = exchange("/p", "application/pdf");

        // when
        String text = written(exchange, new ApiProblem(HttpStatus.NOT_ACCEPTABLE, "No.", Map.of()));

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_ACCEPTABLE);
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+json");
        assertThat(Renderer.JSON.readTree(text).get("status").intValue()).isEqualTo(406);
    }

    @Test
    void givenASuccessLocationAndProblemHeaders_whenWritten_thenLocationIsDroppedAndProblemHeadersKept() {
        // given
        MockServerWebExchange exchange = exchange("/p", null);
        exchange.getResponse().getHeaders().set(HttpHeaders.LOCATION, "/new/v2.0/locales/abc");
        ApiProblem problem = new ApiProblem(HttpStatus.METHOD_NOT_ALLOWED, "Not here.", Map.of()).withHeader("Allow", "GET");

        // when
        written(exchange, problem);

        // then
        assertThat(exchange.getResponse().getHeaders().getFirst(HttpHeaders.LOCATION)).isNull();
        assertThat(exchange.getResponse().getHeaders().getFirst("Allow")).isEqualTo("GET");
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
    }

    @Test
    void givenACommittedResponse_whenWritten_thenNothingChanges() {
        // given
        MockServerWebExchange exchange = exchange("/p", null);
        exchange.getResponse().setStatusCode(HttpStatus.OK);
        exchange.getResponse().setComplete().block();

        // when
        ProblemWriter.write(exchange, ApiProblem.badRequest("Too late.")).block();

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
    }
}
