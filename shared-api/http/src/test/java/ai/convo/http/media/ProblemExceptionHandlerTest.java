package ai.convo.http.media;

import ai.convo.http.problem.ApiProblem;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.DomainException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.Ordered;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import tools.jackson.databind.JsonNode;

class ProblemExceptionHandlerTest {

    private final ProblemExceptionHandler handler = new ProblemExceptionHandler();

    private static MockServerWebExchange exchange(HttpMethod method, String path, String accept) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.method(method, path);
        if (accept != null) {
            request.header(HttpHeaders.ACCEPT, accept);
        }
        return MockServerWebExchange.from(request.build());
    }

    private static MockServerWebExchange get(String path) {
        return exchange(HttpMethod.GET, path, null);
    }

    private String handled(MockServerWebExchange exchange, Throwable error) {
        handler.handle(exchange, error).block();
        return exchange.getResponse().getBodyAsString().block();
    }

    // ---- a client that went away

    @Test
    void givenAClientThatClosedItsConnection_whenItsAnswerFails_thenNothingIsWrittenNorLoggedAsAnError() {
        MockServerWebExchange exchange = get("/new/v2.0/projects");

        handler.handle(exchange, reactor.netty.channel.AbortedException.beforeSend()).block();

        assertThat(exchange.getResponse().getStatusCode()).isNull();
        assertThat(exchange.getResponse().isCommitted()).isFalse();
    }

    // ---- domain exceptions

    @ParameterizedTest
    @CsvSource({
            "INVALID, 400, 1000",
            "NOT_FOUND, 404, 1000",
            "CONFLICT, 409, 1004",
            "FORBIDDEN, 403, 1000",
    })
    void givenADomainExceptionOfAKind_whenMapped_thenItsStatusCodeDetailAndDetails(
            DomainException.Kind kind, int status, String code) {
        // given
        DomainException error = new DomainException(kind, "Rule broken.", Map.of("field", "why"));

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), error);

        // then
        assertThat(problem.status().value()).isEqualTo(status);
        assertThat(problem.code()).isEqualTo(code);
        assertThat(problem.detail()).isEqualTo("Rule broken.");
        assertThat(problem.details()).isEqualTo(Map.of("field", "why"));
    }

    @Test
    void givenADomainExceptionWrappedByTheCommandBus_whenMapped_thenTheDomainExceptionDecides() {
        // given
        DomainException domain = DomainException.conflict("Fallbacks would form a cycle.", Map.of("cycle", List.of("a")));
        Throwable wrapped = new CompletionException(new RuntimeException("command failed", domain));

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), wrapped);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(problem.detail()).isEqualTo("Fallbacks would form a cycle.");
        assertThat(problem.details()).isEqualTo(Map.of("cycle", List.of("a")));
    }

    @Test
    void givenANotFoundDomainException_whenHandled_then404BodyWithLogLevel() {
        // given
        MockServerWebExchange exchange = get("/new/v2.0/locales/abc");

        // when
        JsonNode body = Renderer.JSON.readTree(handled(exchange, DomainException.notFound("Locale abc does not exist.")));

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(body.get("status").intValue()).isEqualTo(404);
        assertThat(body.get("detail").stringValue()).isEqualTo("Locale abc does not exist.");
        assertThat(body.get("instance").stringValue()).isEqualTo("/new/v2.0/locales/abc");
        assertThat(body.has("logLevel")).isTrue();
    }

    @Test
    void givenAnApiProblem_whenMapped_thenItIsKeptAsItIs() {
        // given
        ApiProblem original = ApiProblem.invalidParameter("limit", "limit must be at most 100.");

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), new RuntimeException(original));

        // then
        assertThat(problem).isSameAs(original);
    }

    // ---- server faults

    @Test
    void givenAnUnexpectedRuntimeException_whenHandled_then500WithoutAnyInternals() {
        // given
        MockServerWebExchange exchange = get("/new/v2.0/functions");
        RuntimeException error = new IllegalStateException(
                "secret SQL: select password_hash from users where email = 'ada@example.com'");

        // when
        String text = handled(exchange, error);

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        JsonNode body = Renderer.JSON.readTree(text);
        assertThat(body.get("status").intValue()).isEqualTo(500);
        assertThat(body.get("title").stringValue()).isEqualTo("Internal Server Error");
        assertThat(body.get("type").stringValue()).isEqualTo("Internal Server Error");
        assertThat(body.get("code").stringValue()).isEqualTo("1000");
        assertThat(body.get("detail").stringValue()).contains("traceId");
        assertThat(body.has("logLevel")).isFalse();
        assertThat(text).doesNotContain("secret").doesNotContain("SQL").doesNotContain("password")
                .doesNotContain("IllegalStateException").doesNotContain("java.").doesNotContain("at ai.convo");
    }

    @Test
    void givenARefusedDatabaseConnectionDeepInTheChain_whenHandled_then503WithRetryAfterAndNoInternals() {
        // given: what a pool reports when the database (or a read replica) is restarting
        MockServerWebExchange exchange = get("/new/v2.0/projects");
        RuntimeException error = new RuntimeException("pool acquire failed",
                new IllegalStateException("secret host db-7", new java.net.ConnectException("Connection refused")));

        // when
        String text = handled(exchange, error);

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(Renderer.JSON.readTree(text).get("detail").stringValue()).contains("retry after 1 s");
        assertThat(text).doesNotContain("secret").doesNotContain("ConnectException");
    }

    @Test
    void givenAPlainRuntimeExceptionWithACause_whenMapped_then500WithTheGenericDetail() {
        // given
        RuntimeException error = new RuntimeException("secret SQL failure", new NullPointerException("x is null"));

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), error);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(problem.detail()).doesNotContain("secret").doesNotContain("SQL").doesNotContain("RuntimeException")
                .doesNotContain("NullPointerException").doesNotContain("x is null");
        assertThat(problem.details()).isEmpty();
    }

    @Test
    void givenAServerSideResponseStatusException_whenMapped_then500WithoutItsReason() {
        // given
        ResponseStatusException error = new ResponseStatusException(HttpStatus.BAD_GATEWAY, "upstream db-7 said no");

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), error);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(problem.detail()).doesNotContain("db-7");
    }

    // ---- framework errors a client causes

    @Test
    void givenAnUnknownRoute_whenHandled_then404NamingTheMethodAndPath() {
        // given
        MockServerWebExchange exchange = exchange(HttpMethod.DELETE, "/new/v2.0/nowhere", null);

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(exchange, new ResponseStatusException(HttpStatus.NOT_FOUND));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(problem.detail()).isEqualTo("There is no resource at DELETE /new/v2.0/nowhere.");
    }

    @Test
    void givenAMethodNotAllowed_whenHandled_then405WithAllowHeaderAndAllowedDetails() {
        // given
        MockServerWebExchange exchange = exchange(HttpMethod.PUT, "/new/v2.0/locales/abc", null);
        MethodNotAllowedException error = new MethodNotAllowedException(HttpMethod.PUT,
                Set.of(HttpMethod.PATCH, HttpMethod.GET, HttpMethod.DELETE));

        // when
        JsonNode body = Renderer.JSON.readTree(handled(exchange, error));

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(exchange.getResponse().getHeaders().getFirst("Allow")).isEqualTo("DELETE, GET, PATCH");
        assertThat(body.get("code").stringValue()).isEqualTo("1000");
        assertThat(body.get("title").stringValue()).isEqualTo("Method Not Allowed Error");
        assertThat(body.get("detail").stringValue()).contains("PUT").contains("/new/v2.0/locales/abc")
                .contains("DELETE, GET, PATCH");
        assertThat(body.at("/details/allowed").toString()).isEqualTo("[\"DELETE\",\"GET\",\"PATCH\"]");
    }

    @Test
    void givenBadCredentials_whenMapped_then401WithCode401() {
        // given / when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), new BadCredentialsException("bad password for ada"));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(problem.code()).isEqualTo("401");
        assertThat(problem.detail()).doesNotContain("ada");
    }

    @Test
    void givenAccessDenied_whenMapped_then403() {
        // given / when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), new AccessDeniedException("role check"));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(problem.code()).isEqualTo("1000");
    }

    @Test
    void givenABodyOverTheBufferLimit_whenMapped_then413() {
        // given
        Throwable error = new RuntimeException(new DataBufferLimitException("Exceeded limit on max bytes to buffer"));

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), error);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
        assertThat(problem.code()).isEqualTo("1000");
    }

    @Test
    void givenANotAcceptableStatus_whenMapped_then406ListingTheAllowedTypes() {
        // given / when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"),
                new NotAcceptableStatusException(List.of(MediaType.APPLICATION_JSON)));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.NOT_ACCEPTABLE);
        assertThat(problem.detail()).contains("application/hal+json").contains("text/csv");
    }

    @Test
    void givenAnUnsupportedContentType_whenMapped_then415NamingIt() {
        // given / when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"),
                new UnsupportedMediaTypeStatusException(MediaType.TEXT_PLAIN, List.of(MediaType.APPLICATION_JSON)));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
        assertThat(problem.detail()).contains("'text/plain'");
    }

    @Test
    void givenAnUndecodableBody_whenMapped_then400() {
        // given
        ServerWebInputException error = new ServerWebInputException("Failed to read HTTP message", null,
                new DecodingException("JSON decoding error: Unexpected character at com.example.Secret"));

        // when
        ApiProblem problem = ProblemExceptionHandler.toProblem(get("/p"), error);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.detail()).isEqualTo("The request body could not be read as JSON.");
    }

    // ---- representation

    @Test
    void givenAnXmlClient_whenHandled_thenTheProblemIsXml() {
        // given
        MockServerWebExchange exchange = exchange(HttpMethod.PATCH, "/new/v2.0/locales/abc", "application/xml");

        // when
        String text = handled(exchange, DomainException.conflict("Names are unique."));

        // then
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+xml");
        assertThat(text).startsWith("<problem><type>Conflict</type><title>Conflict Error</title><status>409</status>"
                + "<detail>Names are unique.</detail><instance>/new/v2.0/locales/abc</instance><code>1004</code>");
    }

    @Test
    void givenTheHandler_whenOrdered_thenItRunsBeforeSpringsOwnHandlers() {
        // given / when / then
        assertThat(handler.getOrder()).isLessThan(-1).isLessThan(Ordered.LOWEST_PRECEDENCE);
    }
}
