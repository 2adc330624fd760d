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
import java.util.LinkedHashMap;
import java.util.Map;
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
     * A rebuild's updates of its transaction, by token: each sets every column it touches, so the last one of a row
     * is the row's state. Written (in the order of their tokens' first update) before any other write of a token,
     * and when the template sends what it holds.
     */
    private final class Updates implements BatchingJdbcTemplate.Folded {
        private final Map<String, Object[]> latest = new LinkedHashMap<>();

        @Override
        public void write() {
            latest.values().forEach(args -> jdbc.write(UPDATE, args));
            latest.clear();
        }
    }

    public TokenProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(ProjectCreatedEvent event) {
        foldedUpdatesFirst();
        for (TokenRecord token : DefaultTokens.forProject(event.projectId(), event.createdBy(), event.createdAt())) {
            jdbc.write(INSERT_DEFAULT, token.id(), event.projectId(), event.organisationId(), token.referenceId(),
                    token.label(), token.type(), token.script(), token.createdAt(), token.lastChanged(),
                    token.createdBy(), token.lastChangedBy());
        }
    }

    /**
     * Only into a live project: its default tokens mark it. A token created while its project was being deleted
     * can commit after the deletion; it must not reappear as an orphan row.
     */
    @EventHandler
    public void on(TokenCreatedEvent event) {
        foldedUpdatesFirst();
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
        Object[] args = {event.label(), event.type(), event.script(), event.changedAt(), event.changedBy(),
                event.tokenId()};
        Updates updates = Rebuilding.now() ? jdbc.folded(this, Updates::new) : null;
        if (updates == null) {
            jdbc.write(UPDATE, args);
            return;
        }
        updates.latest.put(event.tokenId(), args);
    }

    /** A rebuild's folded updates go before a write that another event makes, so no write overtakes another. */
    private void foldedUpdatesFirst() {
        if (Rebuilding.now()) {
            Updates updates = jdbc.folded(this, Updates::new);
            if (updates != null) {
                updates.write();
            }
        }
    }

    @EventHandler
    public void on(TokenDeletedEvent event) {
        foldedUpdatesFirst();
        jdbc.write("DELETE FROM token_view WHERE id = ? AND NOT is_default", event.tokenId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        foldedUpdatesFirst();
        jdbc.write("DELETE FROM token_view WHERE project_id = ?", event.projectId());
    }
}
