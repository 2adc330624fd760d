package ai.convo.command.snapshot;

import ai.convo.command.web.DecidingAgain;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.contract.snapshot.DeleteSnapshotCommand;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The deleteSnapshot task: removes the content and the snapshot (freeing its slot) in one transaction. */
@Component
class DeleteSnapshotWork implements TaskWork {

    static final String TYPE = "deleteSnapshot";

    private final JdbcTemplate jdbc;
    private final CommandGateway commands;
    private final TransactionTemplate write;

    DeleteSnapshotWork(JdbcTemplate jdbc, CommandGateway commands, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.write = new TransactionTemplate(transactions);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        SnapshotId snapshotId = SnapshotId.of(String.valueOf(context.parameters().get("snapshotId")));
        context.totalSteps(1);
        DecidingAgain.run(() -> write.executeWithoutResult(status -> {
            jdbc.update("DELETE FROM cmd_snapshot_content WHERE snapshot_id = ?", snapshotId.value());
            jdbc.update("DELETE FROM cmd_snapshot_package WHERE snapshot_id = ?", snapshotId.value());
            commands.sendAndWait(new DeleteSnapshotCommand(new SnapshotRegistryId(context.projectId()), snapshotId,
                    Clock.nowSeconds()));
        }));
    }
}
