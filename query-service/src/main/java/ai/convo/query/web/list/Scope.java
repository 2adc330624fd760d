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

    /**
     * A list of project resources: one project's when {@code projectId} is given (the access filter checked the
     * membership), else the organisation's for an administrator ({@code member} null), else those of the projects
     * {@code member} belongs to, through the membership table in the page's own statement.
     */
    public static Scope projects(String list, String org, String member, String projectId) {
        if (projectId != null) {
            return new Scope("organisation_id = :org AND project_id = :project", Map.of("org", org, "project",
                    projectId), list + "|" + org + "|" + projectId);
        }
        if (member == null) {
            return new Scope("organisation_id = :org", Map.of("org", org), list + "|" + org);
        }
        return new Scope("organisation_id = :org AND project_id IN (SELECT project_id FROM identity_member "
                + "WHERE user_id = :member)", Map.of("org", org, "member", member), list + "|" + org + "|member:"
                + member);
    }
}
