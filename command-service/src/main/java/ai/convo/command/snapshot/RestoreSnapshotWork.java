package ai.convo.command.snapshot;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The restoreSnapshot task: makes the task's project exactly the snapshot's content, all or nothing.
 *
 * <p>The snapshot is read and decoded first (nothing written). Then ONE transaction locks the project's lookup row
 * and its flows' rows exclusively (every creation of a token, function or flow, and every flow, state or intent
 * command, takes those rows shared first, so no ordinary write interleaves; a concurrent change of an existing
 * token, function or locale collides on its event sequence and fails the restore instead), reads what the project
 * holds now, computes the events ({@link RestorePlan}) and appends them in chunks, checking for a cancel between
 * chunks. A cancel or any failure rolls the whole transaction back: the project is exactly as before.
 */
@Component
class RestoreSnapshotWork implements TaskWork {

    static final String TYPE = "restoreSnapshot";
    static final int CHUNK = 5_000;
    /** Well under Axon's 60 s gap timeout, after which tracking processors would skip this transaction's events. */
    static final int TIMEOUT_SECONDS = 45;

    private final ProjectCapture capture;
    private final JdbcTemplate jdbc;
    private final EventStore events;
    private final TransactionTemplate write;

    RestoreSnapshotWork(ProjectCapture capture, JdbcTemplate jdbc, EventStore events,
                        PlatformTransactionManager transactions) {
        this.capture = capture;
        this.jdbc = jdbc;
        this.events = events;
        this.write = new TransactionTemplate(transactions);
        write.setTimeout(TIMEOUT_SECONDS);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String snapshotId = String.valueOf(context.parameters().get("snapshotId"));
        String projectId = context.projectId().value();
        context.totalSteps(2);
        List<byte[]> stored = jdbc.queryForList("SELECT content FROM cmd_snapshot_content WHERE snapshot_id = ?",
                byte[].class, snapshotId);
        if (stored.isEmpty()) {
            throw new TaskFailedException("Snapshot " + snapshotId + " no longer exists; nothing was restored.");
        }
        SnapshotContent content = SnapshotCodec.decode(stored.get(0));
        context.stepDone(1);
        try {
            write.executeWithoutResult(status -> apply(context, content, projectId));
        } catch (DataAccessException | org.axonframework.common.AxonException conflict) {
            throw new TaskFailedException("The project changed while it was being restored, or could not be "
                    + "written; nothing was restored. Retry the restore.", conflict);
        }
    }

    private void apply(TaskContext context, SnapshotContent content, String projectId) {
        List<String> project = jdbc.queryForList("SELECT project_id FROM cmd_project_lookup WHERE project_id = ? "
                + "FOR UPDATE", String.class, projectId);
        if (project.isEmpty()) {
            throw new TaskFailedException("Project " + projectId + " no longer exists; nothing was restored.");
        }
        jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ? ORDER BY flow_id FOR UPDATE",
                String.class, projectId);
        ProjectCapture.Captured current = capture.capture(projectId);
        List<DomainEventMessage<?>> plan = RestorePlan.build(content, current, projectId,
                context.actor().userId(), Clock.nowSeconds());
        for (int from = 0; from < plan.size(); from += CHUNK) {
            if (context.cancelRequested()) {
                throw new TaskCancelledException();
            }
            events.publish(plan.subList(from, Math.min(plan.size(), from + CHUNK)));
        }
        if (context.cancelRequested()) {
            throw new TaskCancelledException();
        }
    }
}
