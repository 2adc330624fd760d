package ai.convo.query.web.list;

import java.util.Map;

/**
 * Which rows a list request may see (tenancy and parent), as a SQL condition with named binds.
 * {@code key} names this list instance; a cursor only works on the list that issued it.
 */
public record Scope(String where, Map<String, Object> binds, String key) {
}
