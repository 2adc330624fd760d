package ai.convo.http.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import ai.convo.contract.identity.Role;
import ai.convo.http.media.ProblemExceptionHandler;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiAuthenticationFilter;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.AuthScheme;
import ai.convo.http.security.IdentityStore;
import ai.convo.http.security.RoutePolicy;
import ai.convo.http.security.Secrets;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;

/**
 * Which requests reach the refusal log, with what, through the real authentication filter and problem handler:
 * 401s and 403s only, the principal or the tried e-mail, and never a key, its hash, a password or the query.
 */
class RefusalAuditTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final String MEMBER_KEY = Secrets.newApiKey();
    private static final String PASSWORD = "correct horse";
    private static final ApiPrincipal MEMBER = new ApiPrincipal("aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb",
            Role.MEMBER, "member@example.com", AuthScheme.API_KEY_HEADER);
    private static final String MEMBER_PASSWORD_HASH = Secrets.PASSWORDS.encode(PASSWORD);

    private final List<Refusal> refused = new ArrayList<>();

    private final IdentityStore identities = new IdentityStore() {
        @Override
        public Mono<ApiPrincipal> findByApiKeyHash(String keyHash) {
            return keyHash.equals(Secrets.hashApiKey(MEMBER_KEY)) ? Mono.just(MEMBER) : Mono.empty();
        }

        @Override
        public Mono<PasswordUser> findByEmail(String email) {
            return email.equals(MEMBER.email()) ? Mono.just(new PasswordUser(MEMBER, MEMBER_PASSWORD_HASH)) : Mono.empty();
        }

        @Override
        public Mono<ApiPrincipal> findByUserId(String userId) {
            return Mono.empty();
        }
    };

    private HttpHandler app(ObjectProvider<RefusalLog> logs) {
        return WebHttpHandlerBuilder
                .webHandler(exchange -> {
                    String path = exchange.getRequest().getPath().value();
                    if (path.endsWith("/forbidden")) {
                        return Mono.error(ApiProblem.forbidden("Members may not."));
                    }
                    if (path.endsWith("/missing")) {
                        return Mono.error(ApiProblem.notFound("No such thing."));
                    }
                    return Mono.empty();
                })
                .filter(new RefusalAudit(logs, () -> NOW),
                        new ApiAuthenticationFilter(new RoutePolicy("/new"), identities, null, null))
                .exceptionHandler(new ProblemExceptionHandler())
                .build();
    }

    private ObjectProvider<RefusalLog> recording() {
        return new StaticListableBeanFactory(Map.of("log", (RefusalLog) refused::add)).getBeanProvider(RefusalLog.class);
    }

    private MockServerHttpResponse send(ObjectProvider<RefusalLog> logs, MockServerHttpRequest request) {
        MockServerHttpResponse response = new MockServerHttpResponse();
        app(logs).handle(request, response).block();
        return response;
    }

    private MockServerHttpResponse send(MockServerHttpRequest.BaseBuilder<?> request) {
        return send(recording(), request.remoteAddress(new InetSocketAddress("10.0.0.7", 40000)).build());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aWrongKeyInTheQueryIsRecordedByItsSchemeAndPathOnly() {
        String key = Secrets.newApiKey();

        MockServerHttpResponse response = send(MockServerHttpRequest.get("/new/v2.0/flows?api_key=" + key));

        assertThat(response.getStatusCode().value()).isEqualTo(401);
        assertThat(refused).containsExactly(new Refusal(null, null, null, "GET", "/new/v2.0/flows", 401,
                "API_KEY_QUERY", "10.0.0.7", NOW));
        assertThat(refused.toString()).doesNotContain(key).doesNotContain(Secrets.hashApiKey(key));
    }

    @Test
    void aForbiddenRequestIsRecordedWithItsPrincipal() {
        MockServerHttpResponse response = send(MockServerHttpRequest.delete("/new/v2.0/things/forbidden")
                .header("X-API-Key", MEMBER_KEY));

        assertThat(response.getStatusCode().value()).isEqualTo(403);
        assertThat(refused).containsExactly(new Refusal(MEMBER.organisationId(), MEMBER.userId(), MEMBER.email(),
                "DELETE", "/new/v2.0/things/forbidden", 403, "API_KEY_HEADER", "10.0.0.7", NOW));
        assertThat(refused.toString()).doesNotContain(MEMBER_KEY).doesNotContain(Secrets.hashApiKey(MEMBER_KEY));
    }

    @Test
    void aWrongPasswordIsRecordedWithTheTriedEmailAndItsUserButNotThePassword() {
        send(MockServerHttpRequest.get("/new/v2.0/flows").header(HttpHeaders.AUTHORIZATION,
                basic(MEMBER.email(), "guess-1")));
        send(MockServerHttpRequest.get("/new/v2.0/flows").header(HttpHeaders.AUTHORIZATION,
                basic("nobody@example.com", "guess-2")));
        // A user name that is no e-mail address may be a secret in the wrong field.
        String key = Secrets.newApiKey();
        send(MockServerHttpRequest.get("/new/v2.0/flows").header(HttpHeaders.AUTHORIZATION, basic(key, "")));

        assertThat(refused).containsExactly(
                new Refusal(MEMBER.organisationId(), MEMBER.userId(), MEMBER.email(), "GET", "/new/v2.0/flows", 401,
                        "BASIC", "10.0.0.7", NOW),
                new Refusal(null, null, "nobody@example.com", "GET", "/new/v2.0/flows", 401, "BASIC", "10.0.0.7", NOW),
                new Refusal(null, null, null, "GET", "/new/v2.0/flows", 401, "BASIC", "10.0.0.7", NOW));
        assertThat(refused.toString()).doesNotContain("guess-").doesNotContain(key);
    }

    @Test
    void noCredentialOrOneTheRouteDoesNotAcceptIsRecordedAsFarAsKnown() {
        send(MockServerHttpRequest.get("/new/v2.0/flows"));
        send(MockServerHttpRequest.get("/new/v2.0/projects/p/snippets").header(HttpHeaders.AUTHORIZATION,
                basic(MEMBER.email(), PASSWORD)));

        assertThat(refused).extracting(Refusal::status, Refusal::scheme, Refusal::email)
                .containsExactly(tuple(401, null, null),
                        tuple(401, "BASIC", null));
    }

    @Test
    void theClientIsTheAddressTheGatewayAppendedNotOneTheClientSent() {
        send(MockServerHttpRequest.get("/new/v2.0/flows").header("X-Forwarded-For", " 198.51.100.7 , 203.0.113.9 "));

        assertThat(refused).extracting(Refusal::remoteAddress).containsExactly("203.0.113.9");
    }

    @Test
    void answersOtherThanRefusalsAreNotRecorded() {
        // No status set: the server's default, 200.
        assertThat(send(MockServerHttpRequest.get("/new/v2.0/flows").header("X-API-Key", MEMBER_KEY))
                .getStatusCode()).isNull();
        assertThat(send(MockServerHttpRequest.get("/new/v2.0/missing").header("X-API-Key", MEMBER_KEY))
                .getStatusCode().value()).isEqualTo(404);
        assertThat(send(MockServerHttpRequest.get("/new/health")).getStatusCode()).isNull();

        assertThat(refused).isEmpty();
    }

    @Test
    void withoutALogOrWithAFailingOneTheAnswerIsTheSame() {
        ObjectProvider<RefusalLog> none = new StaticListableBeanFactory().getBeanProvider(RefusalLog.class);
        ObjectProvider<RefusalLog> failing = new StaticListableBeanFactory(Map.of("log", (RefusalLog) r -> {
            throw new IllegalStateException("down");
        })).getBeanProvider(RefusalLog.class);

        assertThat(send(none, MockServerHttpRequest.get("/new/v2.0/flows").build()).getStatusCode().value())
                .isEqualTo(401);
        MockServerHttpResponse response = send(failing, MockServerHttpRequest.get("/new/v2.0/flows").build());
        assertThat(response.getStatusCode().value()).isEqualTo(401);
        assertThat(response.getBodyAsString().block()).contains("Authentication is required");
    }

    @Test
    void oversizedTextIsClippedToTheColumns() {
        Refusal refusal = new Refusal(null, null, "x".repeat(5000) + "@example.com", "PROPFINDXYZ", "/" + "p".repeat(5000),
                401, "BASIC", "1".repeat(100), NOW);

        assertThat(refusal.email()).hasSize(Refusal.MAX_EMAIL);
        assertThat(refusal.method()).hasSize(Refusal.MAX_METHOD);
        assertThat(refusal.path()).hasSize(Refusal.MAX_PATH);
        assertThat(refusal.remoteAddress()).hasSize(Refusal.MAX_ADDRESS);
    }
}
