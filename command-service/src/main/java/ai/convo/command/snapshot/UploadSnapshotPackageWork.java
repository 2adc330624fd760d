package ai.convo.command.snapshot;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.command.web.DecidingAgain;
import ai.convo.contract.snapshot.AbandonSnapshotCommand;
import ai.convo.contract.snapshot.CompleteSnapshotCommand;
import ai.convo.contract.snapshot.SnapshotCounts;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import ai.convo.contract.snapshot.SnapshotResource;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The uploadSnapshotPackage task: the content of an uploaded package (checked when it was uploaded, kept in
 * cmd_snapshot_upload) becomes the content of a snapshot of the target project, exactly as a createSnapshot task
 * completes one: content and completion in one transaction; a failure abandons the pending snapshot.
 */
@Component
class UploadSnapshotPackageWork implements TaskWork {

    static final String TYPE = "uploadSnapshotPackage";
    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    private final JdbcTemplate jdbc;
    private final CommandGateway commands;
    private final TransactionTemplate write;

    UploadSnapshotPackageWork(JdbcTemplate jdbc, CommandGateway commands, PlatformTransactionManager transactions) {
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
        SnapshotRegistryId registry = new SnapshotRegistryId(context.projectId());
        context.totalSteps(1);
        try {
            List<Map<String, Object>> staged = jdbc.queryForList("SELECT content, resources FROM cmd_snapshot_upload "
                    + "WHERE task_id = ?", context.taskId().value());
            if (staged.isEmpty()) {
                throw new TaskFailedException("The uploaded package is no longer there; upload it again.");
            }
            byte[] content = (byte[]) staged.get(0).get("content");
            SnapshotContent decoded = SnapshotCodec.decode(content);
            SnapshotCounts counts = new SnapshotCounts(decoded.locales().size(), decoded.tokens().size(),
                    decoded.functions().size(), decoded.flows().size(), decoded.states(), decoded.intents(),
                    decoded.sentences());
            String hash = SnapshotCodec.hash(content);
            List<SnapshotResource> resources = JSON.readValue((String) staged.get(0).get("resources"),
                    new tools.jackson.core.type.TypeReference<List<SnapshotResource>>() { });
            DecidingAgain.run(() -> write.executeWithoutResult(status -> {
                jdbc.update("INSERT INTO cmd_snapshot_content (snapshot_id, hash, content) VALUES (?, ?, ?) "
                        + "ON CONFLICT (snapshot_id) DO NOTHING", snapshotId.value(), hash, content);
                jdbc.update("DELETE FROM cmd_snapshot_upload WHERE task_id = ?", context.taskId().value());
                commands.sendAndWait(new CompleteSnapshotCommand(registry, snapshotId, hash, counts, Clock.nowSeconds(),
                        resources));
            }));
            context.stepDone(1);
        } catch (RuntimeException failed) {
            DecidingAgain.run(() -> commands.sendAndWait(new AbandonSnapshotCommand(registry, snapshotId,
                    failed instanceof TaskCancelledException ? "cancelled" : "failed", Clock.nowSeconds())));
            throw failed;
        }
    }
}
