package ai.convo.http.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedException;
import org.springframework.security.web.server.firewall.StrictServerWebExchangeFirewall;
import org.springframework.web.server.ServerWebExchange;

/** What the strict firewall refuses when it is read, the eager one refuses at once; the rest passes unwrapped. */
class EagerFirewallTest {

    private final EagerFirewall eager = new EagerFirewall();

    private static MockServerWebExchange exchange(MockServerHttpRequest.BaseBuilder<?> request) {
        return MockServerWebExchange.from(request);
    }

    @Test
    void aCleanRequestGoesOnUnwrapped() {
        MockServerWebExchange exchange = exchange(MockServerHttpRequest.get("/new/v2.0/projects?limit=2&filter=a b")
                .header("X-API-Key", "k").header("Accept", "application/json"));
        assertThat(eager.getFirewalledExchange(exchange).block()).isSameAs(exchange);
    }

    @Test
    void aBadHeaderOrParameterIsRefusedEvenIfNothingReadsIt() {
        refusedByBoth(exchange(MockServerHttpRequest.get("/new/v2.0/projects").header("X-Unread", "a\u0007b")),
                firewalled -> firewalled.getRequest().getHeaders().getFirst("X-Unread"));
        refusedByBoth(exchange(MockServerHttpRequest.get("/new/v2.0/projects").header("X-Un\u0001read", "a")),
                firewalled -> firewalled.getRequest().getHeaders().get("X-Un\u0001read"));
        refusedByBoth(exchange(MockServerHttpRequest.get("/new/v2.0/projects").queryParam("na\u0002me", "v")),
                firewalled -> firewalled.getRequest().getQueryParams());
    }

    @Test
    void whatTheStrictFirewallRefusesUpFrontIsStillRefused() {
        for (MockServerHttpRequest.BaseBuilder<?> request : java.util.List.of(
                MockServerHttpRequest.get("/new/v2.0/../projects"),
                MockServerHttpRequest.get("/new/v2.0/%2e%2e/projects"),
                MockServerHttpRequest.get("/new/v2.0/projects;jsessionid=1"),
                MockServerHttpRequest.get("/new/v2.0/a%2Fb"),
                MockServerHttpRequest.method(HttpMethod.valueOf("TRACE"), "/new/v2.0/projects"))) {
            MockServerWebExchange exchange = exchange(request);
            assertThatThrownBy(() -> eager.getFirewalledExchange(exchange).block())
                    .isInstanceOf(ServerExchangeRejectedException.class);
        }
    }

    @Test
    void theAsciiShortcutAnswersAsTheStrictPredicatesDo() {
        java.util.Random random = new java.util.Random(13);
        for (var strict : java.util.List.of(StrictServerWebExchangeFirewall.ALLOWED_HEADER_NAMES,
                StrictServerWebExchangeFirewall.ALLOWED_HEADER_VALUES, StrictServerWebExchangeFirewall.ALLOWED_PARAMETER_NAMES,
                StrictServerWebExchangeFirewall.ALLOWED_PARAMETER_VALUES)) {
            var fast = EagerFirewall.printableOr(strict);
            assertThat(fast.test(null)).isEqualTo(strict.test(null));
            for (int n = 0; n < 20_000; n++) {
                StringBuilder value = new StringBuilder();
                for (int i = random.nextInt(12); i > 0; i--) {
                    // mostly around ASCII's edges (controls, DEL, Latin-1), now and then anything in the BMP
                    value.append((char) (random.nextInt(8) == 0 ? random.nextInt(0x10000) : random.nextInt(0x100)));
                }
                assertThat(fast.test(value.toString())).as("%s", value).isEqualTo(strict.test(value.toString()));
            }
        }
    }

    @Test
    void givenAnEncodedNulInAQueryParameter_whenFirewalled_thenRefusedAsUnstorableOrByTheStrictRules() {
        for (String uri : java.util.List.of("/new/v2.0/projects?filter=%00", "/new/v2.0/projects?filter=a%00b&limit=2",
                "/new/v2.0/projects?fil%00ter=a")) {
            MockServerWebExchange exchange = exchange(MockServerHttpRequest.method(HttpMethod.GET, java.net.URI.create("http://h" + uri)));
            assertThatThrownBy(() -> eager.getFirewalledExchange(exchange).block()).as(uri)
                    .isInstanceOfAny(ServerExchangeRejectedException.class, ai.convo.http.problem.ApiProblem.class);
        }
    }

    @Test
    void givenAStorableRequest_whenChecked_thenNothingIsRefused() {
        EagerFirewall.storable(MockServerHttpRequest.method(HttpMethod.GET, java.net.URI.create(
                "http://h/new/v2.0/projects/%F0%9F%98%80?filter=%E2%82%AC%F0%9F%98%80&limit=2")).build());
    }

    @Test
    void givenANulInAQueryValueOrPathSegment_whenChecked_thenA400NamesWhere() {
        assertThatThrownBy(() -> EagerFirewall.storable(MockServerHttpRequest.method(HttpMethod.GET, java.net.URI.create(
                "http://h/new/v2.0/projects?filter=a%00b")).build()))
                .isInstanceOfSatisfying(ai.convo.http.problem.ApiProblem.class, problem -> {
                    assertThat(problem.status().value()).isEqualTo(400);
                    assertThat(problem.details()).containsOnlyKeys("filter");
                });
        assertThatThrownBy(() -> EagerFirewall.storable(MockServerHttpRequest.method(HttpMethod.GET, java.net.URI.create(
                "http://h/new/v2.0/projects/a%00b")).build()))
                .isInstanceOfSatisfying(ai.convo.http.problem.ApiProblem.class,
                        problem -> assertThat(problem.details()).containsOnlyKeys("path"));
    }

    /** The strict firewall refuses it when {@code read} reads it; the eager one before anything is read. */
    @Test
    void givenAQueryParameterTwice_whenFirewalled_thenA400NamesItWhateverTheValues() {
        for (String query : java.util.List.of("projectId=a&projectId=b", "from=1&from=1", "x=&x=")) {
            // given
            MockServerWebExchange exchange = exchange(MockServerHttpRequest.get("/new/v2.0/anything?" + query));
            // when / then
            assertThatThrownBy(() -> eager.getFirewalledExchange(exchange).block())
                    .isInstanceOfSatisfying(ai.convo.http.problem.ApiProblem.class, problem -> {
                        assertThat(problem.status().value()).isEqualTo(400);
                        assertThat(problem.detail()).contains("was given 2 times").contains("give it once");
                        assertThat(problem.details()).containsKey(query.substring(0, query.indexOf('=')));
                    });
        }
    }

    @Test
    void givenAnAcceptOfMoreThan50MediaTypes_whenFirewalled_thenA406ListingWhatIsAllowed() {
        // given: 51 types in one header, and 26 + 25 in two
        String fifty = String.join(", ", java.util.Collections.nCopies(50, "application/json"));
        for (var request : java.util.List.of(
                MockServerHttpRequest.get("/new/v2.0/anything").header("Accept", fifty + ", text/csv"),
                MockServerHttpRequest.get("/new/v2.0/anything").header("Accept",
                        String.join(",", java.util.Collections.nCopies(26, "text/x")),
                        String.join(",", java.util.Collections.nCopies(25, "text/y"))))) {
            MockServerWebExchange exchange = exchange(request);
            // when / then
            assertThatThrownBy(() -> eager.getFirewalledExchange(exchange).block())
                    .isInstanceOfSatisfying(ai.convo.http.problem.ApiProblem.class, problem -> {
                        assertThat(problem.status().value()).isEqualTo(406);
                        assertThat(problem.detail()).contains("51 media types").contains("at most 50")
                                .contains("application/json, application/hal+json");
                    });
        }
        // and 50 (or commas inside a quoted parameter) pass
        MockServerWebExchange fine = exchange(MockServerHttpRequest.get("/new/v2.0/anything").header("Accept", fifty));
        assertThat(eager.getFirewalledExchange(fine).block()).isSameAs(fine);
        MockServerWebExchange quoted = exchange(MockServerHttpRequest.get("/new/v2.0/anything")
                .header("Accept", "application/json;x=\"" + ",".repeat(60) + "\""));
        assertThat(eager.getFirewalledExchange(quoted).block()).isSameAs(quoted);
    }

    @Test
    void givenAResponseHeaderWithACrOrLf_whenTheResponseCommits_thenBothFirewallsRefuseIt() {
        for (String value : java.util.List.of("a\r\nSet-Cookie: b", "a\nb", "a\rb")) {
            for (var firewall : java.util.List.of(new StrictServerWebExchangeFirewall(), eager)) {
                MockServerWebExchange exchange = exchange(MockServerHttpRequest.get("/new/v2.0/projects"));
                ServerWebExchange firewalled = firewall.getFirewalledExchange(exchange).block();
                firewalled.getResponse().getHeaders().add("X-Echo", value);
                assertThatThrownBy(() -> firewalled.getResponse().setComplete().block())
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("X-Echo");
            }
        }
    }

    @Test
    void givenCleanResponseHeaders_whenTheResponseCommits_thenItIsWritten() {
        MockServerWebExchange exchange = exchange(MockServerHttpRequest.get("/new/v2.0/projects"));
        ServerWebExchange firewalled = eager.getFirewalledExchange(exchange).block();
        firewalled.getResponse().getHeaders().add("X-Echo", "a b");

        firewalled.getResponse().setComplete().block();

        assertThat(exchange.getResponse().isCommitted()).isTrue();
        assertThat(exchange.getResponse().getHeaders().getFirst("X-Echo")).isEqualTo("a b");
    }

    private void refusedByBoth(MockServerWebExchange exchange, Function<ServerWebExchange, Object> read) {
        ServerWebExchange strict = new StrictServerWebExchangeFirewall().getFirewalledExchange(exchange).block();
        assertThatThrownBy(() -> read.apply(strict)).isInstanceOf(ServerExchangeRejectedException.class);
        assertThatThrownBy(() -> eager.getFirewalledExchange(exchange).block())
                .isInstanceOf(ServerExchangeRejectedException.class);
    }
}
