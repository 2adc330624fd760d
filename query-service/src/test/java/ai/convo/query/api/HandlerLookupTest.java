package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.web.IndexedHandlerMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The indexed handler lookup chooses what Spring's full lookup chooses, for every route of this service, with every
 * method, media type and content type a client may send, and for paths and methods no route takes.
 */
class HandlerLookupTest extends QueryTestBase {

    @Autowired
    IndexedHandlerMapping mapping;

    private record Outcome(String handler, Object variables, String error) {
    }

    private Outcome outcome(boolean indexed, HttpMethod method, String path, String accept, String contentType) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.method(method, path);
        if (accept != null) {
            request.header("Accept", accept);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        ServerWebExchange exchange = MockServerWebExchange.from(request);
        try {
            HandlerMethod found = indexed ? mapping.lookupHandlerMethod(exchange) : mapping.lookupUnindexed(exchange);
            return new Outcome(found == null ? null : found.getMethod().toGenericString(),
                    exchange.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE), null);
        } catch (Exception e) {
            return new Outcome(null, null, e.getClass().getName() + ": " + e.getMessage());
        }
    }

    private static String concrete(String pattern) {
        return pattern.replaceAll("\\{\\*[^}]+}", "a/b").replaceAll("\\{[^}]+}", "0123456789abcdef01234567");
    }

    @Test
    void eachRouteIsAmongItsFewCandidates() {
        int routes = mapping.getHandlerMethods().size();
        for (RequestMappingInfo route : mapping.getHandlerMethods().keySet()) {
            for (PathPattern pattern : route.getPatternsCondition().getPatterns()) {
                ServerWebExchange exchange = MockServerWebExchange.from(
                        MockServerHttpRequest.get(concrete(pattern.getPatternString())));
                List<RequestMappingInfo> candidates = mapping.candidateMappings(exchange);
                assertThat(candidates).as(pattern.getPatternString()).contains(route);
                assertThat(candidates.size()).as(pattern.getPatternString()).isLessThan(routes / 3);
            }
        }
    }

    @Test
    void aRouteOfFixedLengthIsOnlyTriedOnPathsOfThatLength() {
        String path = "/new/v2.0/flows/0123456789abcdef01234567/intents";
        List<RequestMappingInfo> candidates = mapping.candidateMappings(
                MockServerWebExchange.from(MockServerHttpRequest.get(path)));
        assertThat(candidates).isNotEmpty();
        for (RequestMappingInfo candidate : candidates) {
            // one of its patterns (a mapping may have several) is of any length or of this path's five segments
            assertThat(candidate.getPatternsCondition().getPatterns()).as(candidate.toString()).anySatisfy(pattern ->
                    assertThat(ai.convo.http.web.IndexedHandlerMapping.fixedSegments(pattern.getPatternString()))
                            .isIn(-1, 5));
        }
        assertThat(mapping.getHandlerMethods().keySet().stream().flatMap(info -> info.getPatternsCondition()
                .getPatterns().stream()).filter(pattern -> pattern.getPatternString().startsWith("/new/v2.0/flows/"))
                .count()).isGreaterThan(candidates.size());
    }

    @Test
    void everyRouteIsFoundAsSpringFindsIt() {
        List<String> paths = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> route : mapping.getHandlerMethods().entrySet()) {
            for (PathPattern pattern : route.getKey().getPatternsCondition().getPatterns()) {
                String path = concrete(pattern.getPatternString());
                paths.add(path);
                paths.add(path + "/");
                paths.add(path + "/extra");
                paths.add(path.replace("/v2.0/", "/v2.0/%6E/"));
            }
        }
        paths.addAll(List.of("/", "/new", "/new/", "/new/v2.0", "/new/v2.0/nothing", "/health", "/nothing/at/all",
                "/new//v2.0/projects", "/NEW/v2.0/projects"));
        int compared = 0;
        int found = 0;
        for (String path : paths) {
            for (HttpMethod method : List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PATCH,
                    HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS)) {
                for (String accept : new String[] {null, "application/json", "application/xml", "text/csv", "image/png"}) {
                    for (String contentType : new String[] {null, "application/json", "text/plain"}) {
                        Outcome indexed = outcome(true, method, path, accept, contentType);
                        assertThat(indexed).as("%s %s accept %s content %s", method, path, accept, contentType)
                                .isEqualTo(outcome(false, method, path, accept, contentType));
                        compared++;
                        if (indexed.handler() != null) {
                            found++;
                        }
                    }
                }
            }
        }
        assertThat(mapping.getHandlerMethods()).hasSizeGreaterThan(30);
        assertThat(found).as("lookups that found a handler, of %d", compared).isGreaterThan(1000);
        assertThat(paths.stream().filter(Objects::nonNull)).isNotEmpty();
    }
}
