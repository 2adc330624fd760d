package ai.convo.command.snapshot;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import ai.convo.contract.snapshot.SnapshotResource;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The uploadSnapshotPackage task: the content of an uploaded package (checked when it was uploaded, kept in
 * cmd_snapshot_upload) becomes the content of a snapshot of the target project, exactly as a createSnapshot task
 * completes one: content and completion in one transaction; a failure abandons the pending snapshot.
 */
@Component
class UploadSnapshotPackageWork implements TaskWork {

    static final String TYPE = "uploadSnapshotPackage";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcTemplate jdbc;
    private final SnapshotCompletion completion;

    UploadSnapshotPackageWork(JdbcTemplate jdbc, SnapshotCompletion completion) {
        this.jdbc = jdbc;
        this.completion = completion;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        SnapshotId snapshotId = SnapshotId.of(String.valueOf(context.parameters().get("snapshotId")));
        SnapshotRegistryId registry = new SnapshotRegistryId(context.projectId());
        String taskId = context.taskId().value();
        context.totalSteps(1);
        try {
            List<Map<String, Object>> staged = jdbc.queryForList("SELECT content, resources FROM cmd_snapshot_upload "
                    + "WHERE task_id = ?", taskId);
            if (staged.isEmpty()) {
                throw new TaskFailedException("The uploaded package is no longer there; upload it again.");
            }
            byte[] bytes = (byte[]) staged.get(0).get("content");
            List<SnapshotResource> resources = JSON.readValue((String) staged.get(0).get("resources"),
                    new TypeReference<List<SnapshotResource>>() { });
            completion.complete(registry, snapshotId, SnapshotCodec.decode(bytes), bytes, resources, Clock.nowSeconds(),
                    () -> jdbc.update("DELETE FROM cmd_snapshot_upload WHERE task_id = ?", taskId));
            context.stepDone(1);
        } catch (RuntimeException failed) {
            completion.abandon(registry, snapshotId, failed instanceof TaskCancelledException ? "cancelled" : "failed");
            throw failed;
        }
    }
}
