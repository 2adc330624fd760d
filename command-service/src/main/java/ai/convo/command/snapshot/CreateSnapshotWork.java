package ai.convo.command.snapshot;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import org.springframework.stereotype.Component;

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
    private final SnapshotCompletion completion;

    CreateSnapshotWork(ProjectCapture capture, SnapshotCompletion completion) {
        this.capture = capture;
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
        context.totalSteps(3);
        try {
            long capturedAt = Clock.nowSeconds();
            ProjectCapture.Captured captured = capture.captureAtOnePoint(context.projectId().value());
            SnapshotContent content = ProjectCapture.toContent(captured);
            context.stepDone(1);
            byte[] bytes = SnapshotCodec.encode(content);
            context.stepDone(2);
            completion.complete(registry, snapshotId, content, bytes, ProjectCapture.resources(captured), capturedAt,
                    () -> { });
        } catch (TaskCancelledException cancelled) {
            completion.abandon(registry, snapshotId, "cancelled");
            throw cancelled;
        } catch (RuntimeException failed) {
            completion.abandon(registry, snapshotId, "failed");
            throw failed;
        }
    }
}
