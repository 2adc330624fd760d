package ai.convo.query.eventlog;

import ai.convo.http.param.WholeNumbers;
import ai.convo.http.problem.ApiProblem;
import ai.convo.query.web.QueryParams;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;

/**
 * Which part of an organisation's log a request reads: after a position (exclusive), from a time, and only some
 * projects, resource types or event types. Every parameter is checked; a wrong one is a 400 that says what is allowed.
 */
public record LogQuery(String organisationId, long after, Long sinceMillis, String projectId, String resourceType,
                       String resourceId, String eventType) {

    public static final Set<String> RESOURCE_TYPES = Set.of("project", "locale", "snippet", "function", "functionInstance", "flow",
            "flowState", "intent", "examplesentence", "knowledgeStore", "knowledgeSource", "snapshot", "task", "apiKey",
            "user", "organisation", "voiceAssistantAccount", "analytics", "systemMessage");
    private static final Pattern EVENT_TYPE = Pattern.compile("^[A-Za-z]{1,100}$");
    private static final Pattern RESOURCE_ID = Pattern.compile("^[A-Za-z0-9-]{1,64}$");

    /** {@code lastEventId}: the Last-Event-ID of a reconnecting event stream, which wins over {@code from}. */
    public static LogQuery parse(ServerWebExchange exchange, String organisationId, String lastEventId) {
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        long after = 0;
        String from = params.getFirst("from");
        if (from != null && !from.isEmpty()) {
            after = position("from", from, 1) - 1;
        }
        if (lastEventId != null && !lastEventId.isBlank()) {
            after = position("Last-Event-ID", lastEventId.trim(), 0);
        }
        Long since = null;
        String sinceText = params.getFirst("since");
        if (sinceText != null && !sinceText.isEmpty()) {
            since = instant("since", sinceText);
        }
        String resourceType = params.getFirst("resourceType");
        if (resourceType != null && !resourceType.isEmpty() && !RESOURCE_TYPES.contains(resourceType)) {
            List<String> allowed = new ArrayList<>(RESOURCE_TYPES);
            allowed.sort(null);
            throw ApiProblem.invalidParameter("resourceType", "resourceType must be one of " + allowed + "; got '"
                    + clip(resourceType) + "'.");
        }
        String resourceId = params.getFirst("resourceId");
        if (resourceId != null && !resourceId.isEmpty() && !RESOURCE_ID.matcher(resourceId).matches()) {
            throw ApiProblem.invalidParameter("resourceId", "resourceId must be an id (letters, digits, '-', at most "
                    + "64); got '" + clip(resourceId) + "'.");
        }
        String type = params.getFirst("type");
        if (type != null && !type.isEmpty() && !EVENT_TYPE.matcher(type).matches()) {
            throw ApiProblem.invalidParameter("type", "type must be an event type such as LocaleUpdated (letters only); "
                    + "got '" + clip(type) + "'.");
        }
        return new LogQuery(organisationId, after, since, QueryParams.optionalId(exchange, "projectId"),
                blankToNull(resourceType), blankToNull(resourceId), blankToNull(type));
    }

    public LogQuery after(long position) {
        return new LogQuery(organisationId, position, sinceMillis, projectId, resourceType, resourceId, eventType);
    }

    /** A position (at least {@code min}) in the organisation's log. */
    static long position(String name, String value, long min) {
        Long position = WholeNumbers.parse(value);
        if (position != null && position >= min) {
            return position;
        }
        throw ApiProblem.invalidParameter(name, name + " must be a position in the event log, a whole number of at "
                + "least " + min + "; got '" + clip(value) + "'.");
    }

    /** An ISO-8601 instant (2026-11-25T10:00:00Z) or Unix seconds, as epoch milliseconds. */
    public static long instant(String name, String value) {
        try {
            Long seconds = value.length() <= 12 ? WholeNumbers.parse(value) : null;
            if (seconds != null) {
                return seconds * 1000;
            }
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            throw ApiProblem.invalidParameter(name, name + " must be an ISO-8601 instant such as 2026-11-25T10:00:00Z "
                    + "or Unix seconds; got '" + clip(value) + "'.");
        }
    }

    public static String clip(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
