package ai.convo.http.security;

import ai.convo.contract.common.StorableText;
import ai.convo.http.body.StorableJson;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.security.web.server.firewall.ServerWebExchangeFirewall;
import org.springframework.security.web.server.firewall.StrictServerWebExchangeFirewall;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Spring Security's strict firewall, with its checks run once, up front, on every header and query parameter. The
 * strict firewall checks a header or parameter each time a handler reads it, through wrappers allocated on every
 * {@code getRequest()}: about a tenth of a cached read's CPU. Here the same checks (its own code) run once and the
 * request goes on unwrapped. A request with a disallowed header or parameter is refused even when no handler would
 * have read it.
 */
public final class EagerFirewall implements ServerWebExchangeFirewall {

    private final StrictServerWebExchangeFirewall strict = new StrictServerWebExchangeFirewall();

    public EagerFirewall() {
        strict.setAllowedHeaderNames(printableOr(StrictServerWebExchangeFirewall.ALLOWED_HEADER_NAMES));
        strict.setAllowedHeaderValues(printableOr(StrictServerWebExchangeFirewall.ALLOWED_HEADER_VALUES));
        strict.setAllowedParameterNames(printableOr(StrictServerWebExchangeFirewall.ALLOWED_PARAMETER_NAMES));
        strict.setAllowedParameterValues(printableOr(StrictServerWebExchangeFirewall.ALLOWED_PARAMETER_VALUES));
    }

    /**
     * The strict predicate, asked only of a string with a character outside printable ASCII: every printable ASCII
     * character is assigned and not a control, so such a string passes every strict predicate, and matching it with
     * the strict firewall's regex would run once per header name and value on every request for nothing.
     */
    static Predicate<String> printableOr(Predicate<String> strict) {
        return value -> value == null || printableAscii(value) || strict.test(value);
    }

    private static boolean printableAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Mono<ServerWebExchange> getFirewalledExchange(ServerWebExchange original) {
        ServerWebExchange exchange = ai.convo.http.param.WhitespaceQuery.trimmed(original);
        ServerWebExchange forStrict = exchange.mutate().response(new HeaderCheckedResponse(exchange.getResponse())).build();
        return strict.getFirewalledExchange(forStrict).map(firewalled -> {
            ServerHttpRequest checked = firewalled.getRequest();
            HttpHeaders headers = checked.getHeaders();
            for (String name : headers.headerNames()) {
                headers.get(name);
            }
            storable(checked);
            // after storable: a parameter name it refuses is never shown in this problem
            ai.convo.http.param.QueryParameters.refuseRepeated(checked.getQueryParams());
            ai.convo.http.media.Negotiation.refuseOversized(headers);
            return exchange;
        });
    }

    /**
     * The response the strict firewall registers its one commit action on, its check that no response header name or
     * value holds a CR or LF: the same check runs in its place, over Reactor Netty's own headers where the response
     * has them ({@code HttpHeaders.forEach} builds a case-insensitive set of every header on each response, about a
     * twentieth of a cached read's CPU).
     */
    private static final class HeaderCheckedResponse extends ServerHttpResponseDecorator {

        HeaderCheckedResponse(ServerHttpResponse delegate) {
            super(delegate);
        }

        @Override
        public void beforeCommit(Supplier<? extends Mono<Void>> action) {
            ServerHttpResponse response = getDelegate();
            response.beforeCommit(() -> Mono.fromRunnable(() -> refuseCrLf(response)));
        }
    }

    /** As the strict firewall: a response header name or value with a CR or LF is an IllegalArgumentException. */
    static void refuseCrLf(ServerHttpResponse response) {
        Object nativeResponse = nativeResponse(response);
        if (nativeResponse instanceof reactor.netty.http.server.HttpServerResponse netty) {
            for (Iterator<Map.Entry<CharSequence, CharSequence>> headers = netty.responseHeaders().iteratorCharSequence();
                 headers.hasNext(); ) {
                Map.Entry<CharSequence, CharSequence> header = headers.next();
                refuseCrLf(header.getKey(), header.getValue());
            }
            return;
        }
        response.getHeaders().forEach((name, values) -> values.forEach(value -> refuseCrLf(name, value)));
    }

    private static Object nativeResponse(ServerHttpResponse response) {
        try {
            return ServerHttpResponseDecorator.getNativeResponse(response);
        } catch (IllegalArgumentException | IllegalStateException noNativeResponse) {
            return null; // a response of no server (a test's mock), or no adapter Spring knows
        }
    }

    private static void refuseCrLf(CharSequence name, CharSequence value) {
        if (crLf(name) || crLf(value)) {
            throw new IllegalArgumentException("Invalid characters (CR/LF) in header " + name);
        }
    }

    private static boolean crLf(CharSequence text) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' || c == '\n') {
                return true;
            }
        }
        return false;
    }

    /**
     * Query parameters and path segments, as decoded, hold only text the database can store
     * ({@link StorableText}): a handler may compare them in SQL or write them into an event.
     */
    static void storable(ServerHttpRequest request) {
        Map<String, Object> problems = new LinkedHashMap<>();
        request.getQueryParams().forEach((name, values) -> {
            String nameProblem = StorableText.problem(name);
            if (nameProblem != null) {
                problems.put("query parameter name", nameProblem);
            }
            for (String value : values) {
                String problem = value == null ? null : StorableText.problem(value);
                if (problem != null && nameProblem == null) {
                    problems.put(name, problem);
                }
            }
        });
        for (PathContainer.Element element : request.getPath().pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                String problem = StorableText.problem(segment.valueToMatch());
                if (problem != null) {
                    problems.put("path", "segment " + problem);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw StorableJson.refusal("The request", problems);
        }
    }
}
