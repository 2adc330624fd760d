package ai.convo.query.web.list;

import java.util.Map;

/**
 * Which rows a list request may see (tenancy and parent), as a SQL condition with named binds.
 * {@code key} names this list instance; a cursor only works on the list that issued it. {@code totalSql},
 * when given, answers the unfiltered total (one row, column {@code total}) from a kept count instead of
 * counting the rows per request.
 */
public record Scope(String where, Map<String, Object> binds, String key, String totalSql) {

    public Scope(String where, Map<String, Object> binds, String key) {
        this(where, binds, key, null);
    }
}
