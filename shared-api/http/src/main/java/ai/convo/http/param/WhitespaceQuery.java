package ai.convo.http.param;

import java.net.URI;
import java.util.regex.Pattern;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The official client builds indexKnowledgeChunks' URL from a template literal that puts a newline and four tabs
 * before the query string ({@code ?\n\t\t\t\tlimit=...}), so the first parameter's name arrives led by encoded
 * whitespace, which the firewall would refuse as a control character. The firewall drops whitespace around every
 * parameter name first, so that parameter is read like any other (whitespace inside a name is still refused).
 */
public final class WhitespaceQuery {

    /** Encoded or literal whitespace at either end of a raw parameter name. */
    private static final Pattern EDGE = Pattern.compile("^(?:%0[9aAdD]|%20|\\+|\\s)+|(?:%0[9aAdD]|%20|\\+|\\s)+$");

    private WhitespaceQuery() {
    }

    public static ServerWebExchange trimmed(ServerWebExchange exchange) {
        URI uri = exchange.getRequest().getURI();
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return exchange;
        }
        StringBuilder query = new StringBuilder();
        boolean changed = false;
        for (String parameter : raw.split("&", -1)) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            String trimmed = EDGE.matcher(name).replaceAll("");
            changed |= !trimmed.equals(name);
            if (trimmed.isEmpty() && equals < 0) {
                continue;
            }
            query.append(query.isEmpty() ? "" : "&").append(trimmed).append(equals < 0 ? "" : parameter.substring(equals));
        }
        if (!changed) {
            return exchange;
        }
        URI fixed = UriComponentsBuilder.fromUri(uri).replaceQuery(query.toString()).build(true).toUri();
        return exchange.mutate().request(request -> request.uri(fixed)).build();
    }
}
