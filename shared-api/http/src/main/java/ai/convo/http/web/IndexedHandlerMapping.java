package ai.convo.http.web;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.server.PathContainer;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Spring's annotated handler mapping, with its candidates looked up by the literal start of the path. Spring tries
 * every mapping of the service against a path with variables in it (a hundred and more here, each checking method,
 * media types and pattern): a tenth of a cached read's CPU. Here only the mappings whose patterns start with the
 * same literal segments as the path are tried, with Spring's own matching and ordering. Whatever is not a single
 * clear match (no match, a tie, a CORS preflight) goes to Spring's full lookup, so its 404, 405, 406 and 415 answers
 * and its ambiguity errors are unchanged. Mappings of a fixed number of segments are only tried on paths that have
 * that many (the flows alone have nine mappings under one literal start).
 */
public class IndexedHandlerMapping extends RequestMappingHandlerMapping {

    /** How many leading literal segments key a mapping. */
    static final int DEPTH = 3;

    private record Candidate(RequestMappingInfo info, HandlerMethod handler, boolean direct) {
    }

    /** By "k:segment/segment…" (k leading literal segments); null until built, and while mappings change. */
    private volatile Map<String, List<Candidate>> index;

    @Override
    protected void handlerMethodsInitialized(Map<RequestMappingInfo, HandlerMethod> handlerMethods) {
        super.handlerMethodsInitialized(handlerMethods);
        index = build(handlerMethods);
    }

    private Map<String, List<Candidate>> build(Map<RequestMappingInfo, HandlerMethod> handlerMethods) {
        if (!getPathPatternParser().isCaseSensitive()) {
            return null;
        }
        Map<String, List<Candidate>> built = new HashMap<>();
        handlerMethods.forEach((info, handler) -> {
            var patterns = info.getPatternsCondition().getPatterns();
            if (patterns.isEmpty()) {
                built.computeIfAbsent(key(List.of(), 0), k -> new ArrayList<>()).add(new Candidate(info, handler, false));
                return;
            }
            boolean direct = patterns.stream().noneMatch(PathPattern::hasPatternSyntax);
            for (PathPattern pattern : patterns) {
                List<String> literals = literalStart(pattern.getPatternString());
                int k = Math.min(literals.size(), DEPTH);
                int segments = fixedSegments(pattern.getPatternString());
                String key = segments < 0 ? key(literals, k) : key(literals, k) + "#" + segments;
                List<Candidate> bucket = built.computeIfAbsent(key, ignored -> new ArrayList<>());
                if (bucket.stream().noneMatch(c -> c.info() == info)) {
                    bucket.add(new Candidate(info, handler, direct));
                }
            }
        });
        return built;
    }

    /** Mappings registered in code (routes derived from data, not annotations) are indexed like the others. */
    @Override
    public void registerMapping(RequestMappingInfo mapping, Object handler, Method method) {
        index = null;
        super.registerMapping(mapping, handler, method);
        index = build(getHandlerMethods());
    }

    @Override
    public void unregisterMapping(RequestMappingInfo mapping) {
        index = null;
        super.unregisterMapping(mapping);
        index = build(getHandlerMethods());
    }

    @Override
    public HandlerMethod lookupHandlerMethod(ServerWebExchange exchange) throws Exception {
        Map<String, List<Candidate>> current = index;
        if (current == null || CorsUtils.isPreFlightRequest(exchange.getRequest())) {
            return super.lookupHandlerMethod(exchange);
        }
        List<Candidate> candidates = candidates(current, exchange);
        // As Spring does: mappings of a literal path first, and the patterns only when none of them matches.
        Best best = best(candidates, true, exchange);
        if (best.info == null) {
            best = best(candidates, false, exchange);
        }
        if (best.info == null || best.tied) {
            return super.lookupHandlerMethod(exchange);
        }
        handleMatch(best.info, best.handler, exchange);
        return best.handler;
    }

    /** The mappings the index tries for this exchange (empty before the index is built), for tests. */
    public List<RequestMappingInfo> candidateMappings(ServerWebExchange exchange) {
        Map<String, List<Candidate>> current = index;
        return current == null ? List.of() : candidates(current, exchange).stream().map(Candidate::info).toList();
    }

    private static List<Candidate> candidates(Map<String, List<Candidate>> current, ServerWebExchange exchange) {
        List<String> segments = new ArrayList<>(DEPTH);
        int count = 0;
        for (PathContainer.Element element : exchange.getRequest().getPath().pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                count++;
                if (segments.size() < DEPTH) {
                    segments.add(segment.valueToMatch());
                }
            }
        }
        List<Candidate> candidates = new ArrayList<>();
        for (int k = 0; k <= segments.size(); k++) {
            String key = key(segments, k);
            List<Candidate> bucket = current.get(key);
            if (bucket != null) {
                candidates.addAll(bucket);
            }
            bucket = current.get(key + "#" + count);
            if (bucket != null) {
                candidates.addAll(bucket);
            }
        }
        return candidates;
    }

    /**
     * How many path segments every path the pattern matches has, or -1 when that varies ({@code **}, {@code {*x}},
     * a trailing slash): a mapping of fixed length is only tried on paths of that length.
     */
    public static int fixedSegments(String pattern) {
        if (!pattern.startsWith("/") || pattern.endsWith("/") || pattern.contains("**") || pattern.contains("{*")) {
            return -1;
        }
        return pattern.split("/", -1).length - 1;
    }

    /** Spring's full lookup, for tests that compare the two. */
    public HandlerMethod lookupUnindexed(ServerWebExchange exchange) throws Exception {
        return super.lookupHandlerMethod(exchange);
    }

    private static final class Best {
        RequestMappingInfo info;
        HandlerMethod handler;
        boolean tied;
    }

    private Best best(List<Candidate> candidates, boolean direct, ServerWebExchange exchange) {
        Best best = new Best();
        java.util.Comparator<RequestMappingInfo> order = null;
        for (Candidate candidate : candidates) {
            if (candidate.direct() != direct) {
                continue;
            }
            RequestMappingInfo match = getMatchingMapping(candidate.info(), exchange);
            if (match == null) {
                continue;
            }
            if (best.info == null) {
                best.info = match;
                best.handler = candidate.handler();
                continue;
            }
            if (order == null) {
                order = getMappingComparator(exchange);
            }
            int compared = order.compare(match, best.info);
            if (compared < 0) {
                best.info = match;
                best.handler = candidate.handler();
                best.tied = false;
            } else if (compared == 0) {
                best.tied = true;
            }
        }
        return best;
    }

    /** The pattern's leading segments that are plain text (no variable, wildcard or empty segment). */
    static List<String> literalStart(String pattern) {
        List<String> literals = new ArrayList<>();
        String[] parts = pattern.split("/", -1);
        for (int i = pattern.startsWith("/") ? 1 : 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.indexOf('{') >= 0 || part.indexOf('*') >= 0 || part.indexOf('?') >= 0
                    || part.indexOf('\\') >= 0 || part.indexOf('%') >= 0 || part.indexOf(';') >= 0) {
                break;
            }
            literals.add(part);
        }
        return literals;
    }

    private static String key(List<String> segments, int k) {
        StringBuilder key = new StringBuilder().append(k).append(':');
        for (int i = 0; i < k; i++) {
            key.append(segments.get(i)).append('/');
        }
        return key.toString();
    }
}
