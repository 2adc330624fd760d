package ai.convo.command.snapshot;

import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.command.web.Absent;
import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.snapshot.SnapshotAbandonedEvent;
import ai.convo.contract.snapshot.SnapshotDeletedEvent;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Write-side lookups of the snapshot feature, kept in the commands' own transactions: which project holds a
 * snapshot, and which functions a project has. It also makes every creation of a token, function or flow take a
 * shared lock on its project's lookup row: a restore holds that row exclusively while it replaces the project's
 * resources, so nothing created at the same moment can survive beside the restored content.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class SnapshotLookup {

    /** Where a snapshot lives. */
    public record Location(String snapshotId, String projectId, String organisationId) {
    }

    private final JdbcTemplate jdbc;

    public SnapshotLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The snapshot's project, or a 404 when it does not exist or belongs to another organisation. */
    public Location requireVisible(String snapshotId, Actor actor) {
        List<Location> found = jdbc.query("SELECT snapshot_id, project_id, organisation_id FROM cmd_snapshot "
                        + "WHERE snapshot_id = ?", (row, n) -> new Location(row.getString(1), row.getString(2),
                        row.getString(3)), snapshotId);
        if (found.isEmpty() || !found.get(0).organisationId().equals(actor.organisationId())) {
            throw Absent.of(SnapshotId.class, snapshotId);
        }
        return found.get(0);
    }

    @EventHandler
    void on(SnapshotRequestedEvent event) {
        jdbc.update("INSERT INTO cmd_snapshot (snapshot_id, project_id, organisation_id) VALUES (?, ?, ?)",
                event.snapshotId(), event.projectId(), event.organisationId());
    }

    @EventHandler
    void on(SnapshotAbandonedEvent event) {
        jdbc.update("DELETE FROM cmd_snapshot WHERE snapshot_id = ?", event.snapshotId());
    }

    @EventHandler
    void on(SnapshotDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_snapshot WHERE snapshot_id = ?", event.snapshotId());
    }

    @EventHandler
    void on(FunctionCreatedEvent event) {
        lockProjectShared(event.projectId());
        jdbc.update("INSERT INTO cmd_snapshot_function (function_id, project_id) VALUES (?, ?)",
                event.functionId(), event.projectId());
    }

    @EventHandler
    void on(FunctionDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_snapshot_function WHERE function_id = ?", event.functionId());
    }

    @EventHandler
    void on(TokenCreatedEvent event) {
        lockProjectShared(event.projectId());
    }

    @EventHandler
    void on(FlowCreatedEvent event) {
        lockProjectShared(event.projectId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_snapshot_function WHERE project_id = ?", event.projectId());
    }

    /** Waits while a restore of the project runs (it holds the row FOR UPDATE); harmless otherwise. */
    private void lockProjectShared(String projectId) {
        jdbc.queryForList("SELECT project_id FROM cmd_project_lookup WHERE project_id = ? FOR SHARE", String.class,
                projectId);
    }
}
