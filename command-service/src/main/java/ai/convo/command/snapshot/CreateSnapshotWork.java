package ai.convo.command.snapshot;

import ai.convo.command.web.DecidingAgain;
import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.contract.snapshot.AbandonSnapshotCommand;
import ai.convo.contract.snapshot.CompleteSnapshotCommand;
import ai.convo.contract.snapshot.SnapshotCounts;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The createSnapshot task: captures the project at one consistent point (one REPEATABLE READ transaction over
 * the lookups and the event log), then stores the content and completes the snapshot in one transaction. A
 * failed or cancelled run abandons the pending snapshot, which frees its slot; a repeated run (after a runner
 * died) keeps content already stored, since content and completion commit together.
 */
@Component
class CreateSnapshotWork implements TaskWork {

    static final String TYPE = "createSnapshot";

    private final ProjectCapture capture;
    private final JdbcTemplate jdbc;
    private final CommandGateway commands;
    private final TransactionTemplate consistentRead;
    private final TransactionTemplate write;

    CreateSnapshotWork(ProjectCapture capture, JdbcTemplate jdbc, CommandGateway commands,
                       PlatformTransactionManager transactions) {
        this.capture = capture;
        this.jdbc = jdbc;
        this.commands = commands;
        this.consistentRead = new TransactionTemplate(transactions);
        consistentRead.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        consistentRead.setReadOnly(true);
        this.write = new TransactionTemplate(transactions);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        SnapshotId snapshotId = SnapshotId.of(String.valueOf(context.parameters().get("snapshotId")));
        SnapshotRegistryId registry = new SnapshotRegistryId(context.projectId());
        context.totalSteps(3);
        try {
            long capturedAt = Clock.nowSeconds();
            ProjectCapture.Captured captured = consistentRead.execute(status ->
                    capture.capture(context.projectId().value()));
            SnapshotContent content = ProjectCapture.toContent(captured);
            context.stepDone(1);
            byte[] bytes = SnapshotCodec.encode(content);
            String hash = SnapshotCodec.hash(bytes);
            SnapshotCounts counts = new SnapshotCounts(content.locales().size(), content.tokens().size(),
                    content.functions().size(), content.flows().size(), content.states(), content.intents(),
                    content.sentences());
            context.stepDone(2);
            // the project's registry may take another request of it at the same moment (on any replica)
            DecidingAgain.run(() -> write.executeWithoutResult(status -> {
                jdbc.update("INSERT INTO cmd_snapshot_content (snapshot_id, hash, content) VALUES (?, ?, ?) "
                        + "ON CONFLICT (snapshot_id) DO NOTHING", snapshotId.value(), hash, bytes);
                commands.sendAndWait(new CompleteSnapshotCommand(registry, snapshotId, hash, counts, capturedAt,
                        ProjectCapture.resources(captured)));
            }));
        } catch (TaskCancelledException cancelled) {
            abandon(registry, snapshotId, "cancelled");
            throw cancelled;
        } catch (RuntimeException failed) {
            abandon(registry, snapshotId, "failed");
            throw failed;
        }
    }

    /** Frees the slot; a snapshot that was completed after all stays (the registry ignores the abandon). */
    private void abandon(SnapshotRegistryId registry, SnapshotId snapshotId, String reason) {
        DecidingAgain.run(() -> commands.sendAndWait(new AbandonSnapshotCommand(registry, snapshotId, reason,
                Clock.nowSeconds())));
    }
}
