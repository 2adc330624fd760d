package ai.convo.query.web.list;

import java.util.Map;

/**
 * What a list hangs under and must be visible to the caller (the project of a token list, the flow of a state
 * list): a query that answers a row exactly when it is, with named binds, and what to call it in the 404. The list
 * page asks it in the same statement as the rows and the total, so a list costs one round trip.
 */
public record Parent(String existsSql, Map<String, Object> binds, String what) {

    /** The row of {@code table} with this id in the organisation: the usual parent; none (null) without an id. */
    public static Parent row(String table, String id, String organisationId, String what) {
        if (id == null) {
            return null;
        }
        return new Parent("SELECT 1 FROM " + table + " WHERE id = :parent_id AND organisation_id = :parent_org",
                Map.of("parent_id", id, "parent_org", organisationId), what);
    }
}
