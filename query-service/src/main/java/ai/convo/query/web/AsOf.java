package ai.convo.query.web;

import ai.convo.http.param.WholeNumbers;
import ai.convo.http.problem.ApiProblem;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.springframework.web.server.ServerWebExchange;

/**
 * {@code asOf} of a single-resource read: a position of the organisation's event log (digits: what
 * GET /v2.0/eventlog and the history lists call position) or an ISO-8601 instant. Absent: now.
 */
public record AsOf(Long position, Long timeMillis) {

    public static AsOf parse(ServerWebExchange exchange) {
        String value = exchange.getRequest().getQueryParams().getFirst("asOf");
        if (value == null || value.isEmpty()) {
            return null;
        }
        Long position = WholeNumbers.parse(value);
        if (position != null) {
            if (position >= 1) {
                return new AsOf(position, null);
            }
        } else {
            try {
                return new AsOf(null, Instant.parse(value).toEpochMilli());
            } catch (DateTimeParseException | ArithmeticException ignored) {
                // the problem below says what is allowed
            }
        }
        throw ApiProblem.invalidParameter("asOf", "asOf must be a position in the organisation's event log (a whole "
                + "number from 1) or an ISO-8601 instant such as 2026-11-25T10:00:00Z; got '"
                + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "'.");
    }

    /**
     * Refuses {@code asOf} on a single read that keeps no history ({@code why}, and where the past can be read):
     * a 400 rather than today's answer silently given for another moment.
     */
    public static void refuse(ServerWebExchange exchange, String why) {
        parse(exchange);
        if (exchange.getRequest().getQueryParams().containsKey("asOf")) {
            throw ApiProblem.invalidParameter("asOf", "asOf cannot be answered here: " + why);
        }
    }

    String describe() {
        return position != null ? "position " + position + " of the event log" : Instant.ofEpochMilli(timeMillis).toString();
    }
}
