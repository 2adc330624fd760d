package ai.convo.http.access;

import ai.convo.http.media.ProblemWriter;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiAuthenticationFilter;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.IdentityStore;
import ai.convo.contract.common.Ids;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Enforces the {@link AccessPolicy} after authentication, before any handler runs, so a refused request stores
 * nothing. A role missing is a 403 naming the roles that would allow it; a project the caller is no member of is the
 * 404 of a resource that does not exist, so a non-member cannot tell it exists. A member limited to some locales
 * (allowedLocales) changes nothing that names another locale, and deletes no flow or intent (content in every locale). The body is read here only when the project or a
 * locale is named there and the caller is no organisation administrator.
 */
public final class AccessFilter implements WebFilter, org.springframework.core.Ordered {

    /** After Spring Security's chain (-100) and the query service's read-your-writes wait (0). */
    public static final int ORDER = 10;

    /** The gateway's body limit: a body beyond it never reaches a service. */
    static final int MAX_BODY = 2 * 1024 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> LOCALE_FIELDS = Set.of("localeId", "localeReference", "inheritFromLocaleId");
    /** Flows and intents have content in every locale: deleting one (alone or in a batch) touches every locale. */
    private static final Set<String> DELETES_EVERY_LOCALE = Set.of("/v2.0/flows/{flowId}",
            "/v2.0/flows/{flowId}/intents/{intentId}");
    private static final Set<String> BATCHES_EVERY_LOCALE = Set.of("/v2.0/flows", "/v2.0/flows/{flowId}/intents");

    private final AccessPolicy policy;
    private final IdentityStore identities;
    private final ProjectOf projects;

    public AccessFilter(AccessPolicy policy, IdentityStore identities, ProjectOf projects) {
        this.policy = policy;
        this.identities = identities;
        this.projects = projects;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ApiPrincipal principal = ApiAuthenticationFilter.principal(exchange);
        if (principal == null || principal.isOrganisationAdmin()) {
            return chain.filter(exchange);
        }
        AccessPolicy.Match match = policy.match(exchange.getRequest().getMethod(),
                exchange.getRequest().getPath().value());
        if (match == null) {
            return chain.filter(exchange);
        }
        AccessPolicy.Rule rule = match.rule();
        return switch (rule.scope()) {
            case ANYONE -> chain.filter(exchange);
            case ORGANISATION -> rule.roles().stream().anyMatch(principal.roles()::contains) ? chain.filter(exchange)
                    : ProblemWriter.write(exchange, missing(rule, "organisation-wide", principal.roles()));
            case PROJECT -> project(exchange, chain, principal, match);
        };
    }

    private Mono<Void> project(ServerWebExchange exchange, WebFilterChain chain, ApiPrincipal principal,
                               AccessPolicy.Match match) {
        String from = match.rule().projectFrom();
        if (from.startsWith("body:")) {
            if (!json(exchange)) {
                return chain.filter(exchange); // the handler refuses a body that is no JSON object
            }
            return body(exchange).flatMap(read -> {
                JsonNode root = parse(read.bytes());
                JsonNode named = root == null ? null : root.get(from.substring(5));
                String projectId = named != null && named.isString() && Ids.isValid(named.stringValue())
                        ? named.stringValue() : null;
                // no valid project named: the handler answers the 400 that says so, as it does for anyone
                return projectId == null ? chain.filter(read.exchange())
                        : member(read.exchange(), chain, principal, match, "projectId", projectId, root);
            }).onErrorResume(DataBufferLimitException.class, e -> ProblemWriter.write(exchange,
                    new ApiProblem(HttpStatus.PAYLOAD_TOO_LARGE, "The request body is larger than " + MAX_BODY
                            + " bytes.", Map.of())));
        }
        if (from.startsWith("query:")) {
            String name = from.substring(6);
            String projectId = exchange.getRequest().getQueryParams().getFirst(name);
            if (projectId == null && match.rule().acrossProjects()) {
                return chain.filter(exchange); // the handler lists the caller's projects only
            }
            if (projectId == null) {
                return ProblemWriter.write(exchange, ApiProblem.invalidParameter(name, name + " is required: a user "
                        + "who is no organisation administrator reads and changes one project at a time, one they "
                        + "are a member of."));
            }
            if (!Ids.isValid(projectId)) {
                return chain.filter(exchange); // the handler names the malformed parameter
            }
            return member(exchange, chain, principal, match, "projectId", projectId, null);
        }
        String id = match.variables().get(from);
        if (from.equals("projectId")) {
            return member(exchange, chain, principal, match, from, id, null);
        }
        return decide(exchange, chain, match, from, id, null, projects.membership(principal.userId(), from, id));
    }

    private Mono<Void> member(ServerWebExchange exchange, WebFilterChain chain, ApiPrincipal principal,
                              AccessPolicy.Match match, String variable, String projectId, JsonNode body) {
        return decide(exchange, chain, match, variable, projectId, body,
                identities.membership(principal.userId(), projectId));
    }

    private Mono<Void> decide(ServerWebExchange exchange, WebFilterChain chain, AccessPolicy.Match match,
                              String variable, String id, JsonNode body, Mono<IdentityStore.Membership> found) {
        return found.map(Optional::of).defaultIfEmpty(Optional.empty())
                .flatMap(membership -> {
                    if (membership.isEmpty()) {
                        return absent(exchange, variable, id);
                    }
                    Set<String> held = membership.get().roles();
                    AccessPolicy.Rule rule = match.rule();
                    if (rule.roles().stream().noneMatch(held::contains)) {
                        return ProblemWriter.write(exchange, missing(rule, "project-wide", held));
                    }
                    Set<String> allowed = membership.get().allowedLocales();
                    if (rule.kind() == AccessPolicy.Kind.WRITE && allowed != null) {
                        return locales(exchange, chain, match, body, allowed);
                    }
                    return chain.filter(exchange);
                });
    }

    /**
     * A write of a member limited to some locales: every locale it names must be one of them, and it may not delete a
     * flow or an intent, whose content in every locale goes with it.
     */
    private Mono<Void> locales(ServerWebExchange exchange, WebFilterChain chain, AccessPolicy.Match match,
                               JsonNode body, Set<String> allowed) {
        if (DELETES_EVERY_LOCALE.contains(match.rule().path())
                && exchange.getRequest().getMethod() == org.springframework.http.HttpMethod.DELETE) {
            return ProblemWriter.write(exchange, everyLocale(match.rule(), allowed));
        }
        Set<String> named = new LinkedHashSet<>();
        Optional.ofNullable(match.variables().get("localeId")).ifPresent(named::add);
        Optional.ofNullable(exchange.getRequest().getQueryParams().getFirst("localeId")).ifPresent(named::add);
        if (body != null || !json(exchange)) {
            if (body != null) {
                collect(body, named);
            }
            return allowedLocales(exchange, chain, named, allowed);
        }
        return body(exchange).flatMap(read -> {
            JsonNode root = parse(read.bytes());
            if (root != null && BATCHES_EVERY_LOCALE.contains(match.rule().path()) && deletes(root)) {
                return ProblemWriter.write(read.exchange(), everyLocale(match.rule(), allowed));
            }
            if (root != null) {
                collect(root, named);
            }
            return allowedLocales(read.exchange(), chain, named, allowed);
        });
    }

    /** A batch ({"operations": [...]}) with a deletion in it. */
    private static boolean deletes(JsonNode root) {
        JsonNode operations = root.get("operations");
        if (operations == null || !operations.isArray()) {
            return false;
        }
        for (JsonNode operation : operations) {
            JsonNode op = operation.get("op");
            if (op != null && op.isString() && op.stringValue().equals("delete")) {
                return true;
            }
        }
        return false;
    }

    private static ApiProblem everyLocale(AccessPolicy.Rule rule, Set<String> allowed) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("allowedLocales", new TreeSet<>(allowed).stream().toList());
        details.put("resource", rule.resource());
        return new ApiProblem(HttpStatus.FORBIDDEN, "Deleting a " + rule.resource() + " deletes its content in every "
                + "locale of the project; you may change only the locales " + String.join(", ", new TreeSet<>(allowed))
                + " (your allowedLocales). A member without a locale limit may delete it.", details);
    }

    private static Mono<Void> allowedLocales(ServerWebExchange exchange, WebFilterChain chain, Set<String> named,
                                             Set<String> allowed) {
        Set<String> other = new TreeSet<>(named);
        other.removeAll(allowed);
        if (other.isEmpty()) {
            return chain.filter(exchange);
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("allowedLocales", new TreeSet<>(allowed).stream().toList());
        details.put("refusedLocales", other.stream().toList());
        return ProblemWriter.write(exchange, new ApiProblem(HttpStatus.FORBIDDEN, "You may change only the locales "
                + String.join(", ", new TreeSet<>(allowed)) + " of this project (your allowedLocales); this request "
                + "changes " + String.join(", ", other) + ".", details));
    }

    private static void collect(JsonNode node, Set<String> named) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (LOCALE_FIELDS.contains(field.getKey()) && field.getValue().isString()) {
                    named.add(field.getValue().stringValue());
                } else {
                    collect(field.getValue(), named);
                }
            }
        } else if (node.isArray()) {
            node.forEach(item -> collect(item, named));
        }
    }

    private static Mono<Void> absent(ServerWebExchange exchange, String variable, String id) {
        return ProblemWriter.write(exchange, ApiProblem.notFound(AccessPolicy.noun(variable) + " " + id
                + " does not exist."));
    }

    private static boolean json(ServerWebExchange exchange) {
        MediaType type = exchange.getRequest().getHeaders().getContentType();
        return type != null && type.getType().equals("application")
                && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            JsonNode root = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
            return root != null && root.isObject() ? root : null;
        } catch (RuntimeException malformed) {
            return null; // the handler names what is wrong with it
        }
    }

    private record Read(byte[] bytes, ServerWebExchange exchange) {
    }

    /** The body, and the exchange that hands the same bytes on to the handler. */
    private static Mono<Read> body(ServerWebExchange exchange) {
        return DataBufferUtils.join(exchange.getRequest().getBody(), MAX_BODY)
                .map(buffer -> {
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    DataBufferUtils.release(buffer);
                    return bytes;
                })
                .defaultIfEmpty(new byte[0])
                .map(bytes -> {
                    ServerHttpRequest request = new ServerHttpRequestDecorator(exchange.getRequest()) {
                        @Override
                        public Flux<DataBuffer> getBody() {
                            return Flux.defer(() -> Flux.just(exchange.getResponse().bufferFactory().wrap(bytes)));
                        }
                    };
                    return new Read(bytes, exchange.mutate().request(request).build());
                });
    }

    static ApiProblem missing(AccessPolicy.Rule rule, String kind, Set<String> held) {
        List<String> needed = rule.roles().stream().toList();
        String access = rule.kind().name().toLowerCase(Locale.ROOT);
        String which = needed.isEmpty() ? "to be an organisation administrator (role admin)"
                : needed.size() > 10 ? "any " + kind + " role in the project (e.g. basic)"
                : "one of the " + kind + " roles " + String.join(", ", needed) + " (or organisation role admin)";
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("requiredRoles", needed.isEmpty() ? List.of("admin") : needed);
        details.put("heldRoles", new TreeSet<>(held).stream().toList());
        details.put("resource", rule.resource());
        details.put("access", access);
        return new ApiProblem(HttpStatus.FORBIDDEN, "To " + access + " " + rule.resource() + " here you need "
                + which + "; you hold " + (held.isEmpty() ? "none" : String.join(", ", new TreeSet<>(held))) + ".",
                details);
    }
}
