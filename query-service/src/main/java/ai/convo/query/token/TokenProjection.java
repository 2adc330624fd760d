package ai.convo.query.token;

import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.token.DefaultTokens;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenRecord;
import ai.convo.contract.token.TokenUpdatedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.query.readmodel.Rebuilding;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.stereotype.Component;

/**
 * The token read model; plain code that a test can feed events. A new project gets its default tokens here
 * (they have no events of their own); deleting a project removes all of its tokens.
 */
@Component
@ProcessingGroup(TokenProjection.GROUP)
public class TokenProjection {

    public static final String GROUP = "tokens";

    private static final String INSERT_DEFAULT = "INSERT INTO token_view (id, project_id, organisation_id, reference_id, "
            + "label, token_type, script, is_default, created_at, last_changed, created_by, last_changed_by) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, true, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";

    private static final String UPDATE = "UPDATE token_view SET label = ?, token_type = ?, script = ?, last_changed = ?, "
            + "last_changed_by = ? WHERE id = ? AND NOT is_default";

    private final BatchingJdbcTemplate jdbc;

    /**
     * A rebuild's new rows and updates of one fold in one statement. The new rows (a new project's default tokens,
     * created tokens) go in their order, the first of an id winning; a created token carries the fold's last update
     * of it. A token goes in if its project has default tokens: already ({@code EXISTS}), or from this fold
     * ({@code live}: the INSERT does not see its own rows). The update part sees only rows that were there before the
     * statement (never those its own INSERT adds), so it changes the tokens of earlier folds, and those whose
     * creation found the id taken, as event by event it would.
     */
    private static final String CREATE_AND_UPDATE = "WITH created AS (INSERT INTO token_view (id, project_id, "
            + "organisation_id, reference_id, label, token_type, script, is_default, created_at, last_changed, "
            + "created_by, last_changed_by) "
            + "SELECT t.id, t.project_id, t.organisation_id, t.reference_id, t.label, t.token_type, t.script, "
            + "t.is_default, t.created_at, t.last_changed, t.created_by, t.last_changed_by "
            + "FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[], "
            + "?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::boolean[]) WITH ORDINALITY AS t(id, project_id, "
            + "organisation_id, reference_id, label, token_type, script, is_default, created_at, last_changed, "
            + "created_by, last_changed_by, live, n) "
            + "WHERE t.live OR EXISTS (SELECT 1 FROM token_view d WHERE d.project_id = t.project_id AND d.is_default) "
            + "ORDER BY t.n ON CONFLICT (id) DO NOTHING) "
            + "UPDATE token_view v SET label = u.label, token_type = u.token_type, script = u.script, "
            + "last_changed = u.last_changed, last_changed_by = u.last_changed_by "
            + "FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[]) "
            + "AS u(id, label, token_type, script, last_changed, last_changed_by) WHERE v.id = u.id AND NOT v.is_default";

    /** A new row of a fold: a default token of a new project, or a created token ({@code live}: see above). */
    private record NewRow(String id, String projectId, String organisationId, String referenceId, String label,
                          String type, String script, boolean isDefault, long createdAt, long lastChanged,
                          String createdBy, String lastChangedBy, boolean live) {
    }

    /**
     * A rebuild's new rows and token updates of its transaction, written as one multi-row statement: one statement
     * per event costs the server more than the rows do, and a token created and changed in one fold is written once.
     * The last update of each token sets every column it touches. An update only comes before a creation when it
     * came first: a creation of a token with an update held here writes what is held first. Written before any other
     * write of a token (deletions), and when the template sends what it holds.
     */
    private final class Folds implements BatchingJdbcTemplate.Folded {
        private final List<NewRow> created = new ArrayList<>();
        private final Set<String> newProjects = new HashSet<>();
        private final Map<String, TokenUpdatedEvent> latest = new LinkedHashMap<>();

        @Override
        public void write() {
            if (created.isEmpty() && latest.isEmpty()) {
                return;
            }
            int n = created.size();
            String[] ids = new String[n], projects = new String[n], organisations = new String[n],
                    references = new String[n], labels = new String[n], types = new String[n], scripts = new String[n],
                    creators = new String[n], changers = new String[n];
            boolean[] defaults = new boolean[n], live = new boolean[n];
            long[] createdAt = new long[n], changedAt = new long[n];
            for (int i = 0; i < n; i++) {
                NewRow row = created.get(i);
                TokenUpdatedEvent u = row.isDefault() ? null : latest.get(row.id());
                ids[i] = row.id();
                projects[i] = row.projectId();
                organisations[i] = row.organisationId();
                references[i] = row.referenceId();
                defaults[i] = row.isDefault();
                live[i] = row.live();
                creators[i] = row.createdBy();
                createdAt[i] = row.createdAt();
                labels[i] = u == null ? row.label() : u.label();
                types[i] = u == null ? row.type() : u.type();
                scripts[i] = u == null ? row.script() : u.script();
                changedAt[i] = u == null ? row.lastChanged() : u.changedAt();
                changers[i] = u == null ? row.lastChangedBy() : u.changedBy();
            }
            List<TokenUpdatedEvent> updates = new ArrayList<>(latest.values());
            created.clear();
            newProjects.clear();
            latest.clear();
            jdbc.write(CREATE_AND_UPDATE, ids, projects, organisations, references, labels, types, scripts, defaults,
                    createdAt, changedAt, creators, changers, live, column(updates, TokenUpdatedEvent::tokenId),
                    column(updates, TokenUpdatedEvent::label), column(updates, TokenUpdatedEvent::type),
                    column(updates, TokenUpdatedEvent::script),
                    updates.stream().mapToLong(TokenUpdatedEvent::changedAt).toArray(),
                    column(updates, TokenUpdatedEvent::changedBy));
        }

        private static <E> String[] column(List<E> events, Function<E, String> field) {
            String[] values = new String[events.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = field.apply(events.get(i));
            }
            return values;
        }
    }

    public TokenProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(ProjectCreatedEvent event) {
        Folds folds = Rebuilding.now() ? jdbc.folded(this, Folds::new) : null;
        for (TokenRecord token : DefaultTokens.forProject(event.projectId(), event.createdBy(), event.createdAt())) {
            if (folds != null) {
                folds.created.add(new NewRow(token.id(), event.projectId(), event.organisationId(), token.referenceId(),
                        token.label(), token.type(), token.script(), true, token.createdAt(), token.lastChanged(),
                        token.createdBy(), token.lastChangedBy(), true));
                continue;
            }
            jdbc.write(INSERT_DEFAULT, token.id(), event.projectId(), event.organisationId(), token.referenceId(),
                    token.label(), token.type(), token.script(), token.createdAt(), token.lastChanged(),
                    token.createdBy(), token.lastChangedBy());
        }
        if (folds != null) {
            folds.newProjects.add(event.projectId());
        }
    }

    /**
     * Only into a live project: its default tokens mark it. A token created while its project was being deleted
     * can commit after the deletion; it must not reappear as an orphan row.
     */
    @EventHandler
    public void on(TokenCreatedEvent event) {
        Folds folds = Rebuilding.now() ? jdbc.folded(this, Folds::new) : null;
        if (folds != null) {
            if (folds.latest.containsKey(event.tokenId())) {
                folds.write();
            }
            folds.created.add(new NewRow(event.tokenId(), event.projectId(), event.organisationId(),
                    event.referenceId(), event.label(), event.type(), event.script(), false, event.createdAt(),
                    event.createdAt(), event.createdBy(), event.createdBy(), folds.newProjects.contains(event.projectId())));
            return;
        }
        jdbc.write("INSERT INTO token_view (id, project_id, organisation_id, reference_id, label, token_type, script, "
                        + "is_default, created_at, last_changed, created_by, last_changed_by) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, false, ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM token_view WHERE project_id = ? AND is_default) "
                        + "ON CONFLICT (id) DO NOTHING",
                event.tokenId(), event.projectId(), event.organisationId(), event.referenceId(), event.label(),
                event.type(), event.script(), event.createdAt(), event.createdAt(), event.createdBy(),
                event.createdBy(), event.projectId());
    }

    @EventHandler
    public void on(TokenUpdatedEvent event) {
        Folds folds = Rebuilding.now() ? jdbc.folded(this, Folds::new) : null;
        if (folds != null) {
            folds.latest.put(event.tokenId(), event);
            return;
        }
        jdbc.write(UPDATE, event.label(), event.type(), event.script(), event.changedAt(), event.changedBy(),
                event.tokenId());
    }

    /** A rebuild's folded writes go before a write that another event makes, so no write overtakes another. */
    private void foldedFirst() {
        if (Rebuilding.now()) {
            Folds folds = jdbc.folded(this, Folds::new);
            if (folds != null) {
                folds.write();
            }
        }
    }

    @EventHandler
    public void on(TokenDeletedEvent event) {
        foldedFirst();
        jdbc.write("DELETE FROM token_view WHERE id = ? AND NOT is_default", event.tokenId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        foldedFirst();
        jdbc.write("DELETE FROM token_view WHERE project_id = ?", event.projectId());
    }
}
