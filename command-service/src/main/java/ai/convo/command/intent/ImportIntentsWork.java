package ai.convo.command.intent;

import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.http.problem.ApiProblem;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The importIntents task: the uploaded file (checked at upload, kept in cmd_intent_import) applied to the flow as
 * {@link IntentImportPlan} says, all of it in one transaction or nothing, recorded as writes of the user who
 * uploaded it (who then reads them on any query replica). The staged file is removed when the task ends.
 */
@Component
class ImportIntentsWork implements TaskWork {

    static final String TYPE = "importIntents";

    private final ProjectCapture capture;
    private final Commands commands;
    private final JdbcTemplate jdbc;

    ImportIntentsWork(ProjectCapture capture, Commands commands, JdbcTemplate jdbc) {
        this.capture = capture;
        this.commands = commands;
        this.jdbc = jdbc;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String taskId = context.taskId().value();
        String flowId = String.valueOf(context.parameters().get("flowId"));
        String localeId = String.valueOf(context.parameters().get("localeId"));
        String mode = String.valueOf(context.parameters().get("mode"));
        context.totalSteps(2);
        try {
            List<byte[]> staged = jdbc.queryForList("SELECT content FROM cmd_intent_import WHERE task_id = ?",
                    byte[].class, taskId);
            if (staged.isEmpty()) {
                throw new TaskFailedException("The uploaded file is no longer there; upload it again.");
            }
            List<IntentFile.Entry> entries = IntentFile.read(staged.get(0));
            IntentImportPlan.Plan plan = IntentImportPlan.build(entries,
                    capture.intentsOf(flowId), flowId, localeId, mode,
                    context.actor(), Clock.nowSeconds());
            context.stepDone(1);
            if (!plan.commands().isEmpty()) {
                commands.sendTogetherAs(context.actor().userId(), plan.commands(), plan.labels());
            }
            unstage(taskId);
            context.stepDone(2);
        } catch (DomainException | ApiProblem refused) {
            // the flow changed since the upload was checked (a name taken, a parent deleted, the flow gone)
            unstage(taskId);
            throw new TaskFailedException((refused instanceof DomainException d ? d.detail()
                    : ((ApiProblem) refused).detail()) + " Nothing was imported.", refused);
        }
    }

    /** Kept until the import ended for good: a runner that dies before this leaves the file to the next one. */
    private void unstage(String taskId) {
        jdbc.update("DELETE FROM cmd_intent_import WHERE task_id = ?", taskId);
    }
}
