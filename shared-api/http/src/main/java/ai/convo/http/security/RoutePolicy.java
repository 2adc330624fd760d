package ai.convo.http.security;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Which schemes each operation accepts, as the specification's Authentication part says. Operations the
 * specification does not name take the default alternatives plus bearer access tokens.
 */
public final class RoutePolicy {

    static final Set<AuthScheme> DEFAULT = EnumSet.of(
            AuthScheme.API_KEY_HEADER, AuthScheme.API_KEY_QUERY, AuthScheme.CONTACT_CENTER, AuthScheme.BASIC);
    static final Set<AuthScheme> DEFAULT_AND_BEARER = EnumSet.allOf(AuthScheme.class);
    static final Set<AuthScheme> KEYS_AND_CONTACT_CENTER = EnumSet.of(
            AuthScheme.API_KEY_HEADER, AuthScheme.API_KEY_QUERY, AuthScheme.CONTACT_CENTER);

    private record Rule(HttpMethod method, PathPattern pattern, Set<AuthScheme> schemes) {
    }

    private static final PathPatternParser PARSER = new PathPatternParser();
    private final List<Rule> rules = List.of(
            rule(HttpMethod.GET, "/v2.0/projects/{projectId}/snippets", KEYS_AND_CONTACT_CENTER),
            rule(HttpMethod.PATCH, "/v2.0/knowledgestores/{storeId}/sources/{sourceId}", KEYS_AND_CONTACT_CENTER),
            rule(HttpMethod.POST, "/management/v2.0/system/createsystemmessage", EnumSet.of(AuthScheme.BASIC)),
            rule(HttpMethod.GET, "/v3.0/callcounter", DEFAULT),
            rule(HttpMethod.GET, "/v2.0/flows/{flowId}/states", DEFAULT),
            rule(HttpMethod.GET, "/v2.0/flows/{flowId}/intents", DEFAULT));
    private final List<Rule> publicRoutes = List.of(
            rule(HttpMethod.GET, "/v2.0/system/message", Set.of()),
            rule(HttpMethod.HEAD, "/v2.0/system/message", Set.of()),
            rule(HttpMethod.GET, "/health", Set.of()),
            rule(HttpMethod.HEAD, "/health", Set.of()),
            rule(HttpMethod.GET, "/health/ready", Set.of()),
            rule(HttpMethod.HEAD, "/health/ready", Set.of()),
            // the API description (ApiDescriptionController): what a client reads before it has credentials
            rule(HttpMethod.GET, "/openapi.json", Set.of()),
            rule(HttpMethod.HEAD, "/openapi.json", Set.of()));
    private final String basePath;

    public RoutePolicy(String basePath) {
        this.basePath = basePath == null || basePath.equals("/") ? "" : basePath;
    }

    private static Rule rule(HttpMethod method, String pattern, Set<AuthScheme> schemes) {
        return new Rule(method, PARSER.parse(pattern), schemes);
    }

    public boolean isPublic(HttpMethod method, String path) {
        PathContainer container = within(path);
        return container != null && publicRoutes.stream()
                .anyMatch(r -> r.method.equals(method) && r.pattern.matches(container));
    }

    public Set<AuthScheme> allowed(HttpMethod method, String path) {
        PathContainer container = within(path);
        if (container != null) {
            for (Rule rule : rules) {
                if (rule.method.equals(method) && rule.pattern.matches(container)) {
                    return rule.schemes;
                }
            }
        }
        return DEFAULT_AND_BEARER;
    }

    private PathContainer within(String path) {
        if (!path.startsWith(basePath)) {
            return null;
        }
        String rest = path.substring(basePath.length());
        return PathContainer.parsePath(rest.isEmpty() ? "/" : rest);
    }
}
