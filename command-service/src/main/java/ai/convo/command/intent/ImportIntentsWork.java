package ai.convo.command.intent;

import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.ReadSidePace;
import ai.convo.command.task.TaskCancelledException;
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
 * {@link IntentImportPlan} says, recorded as writes of the user who uploaded it (who then reads them on any query
 * replica). A file of up to {@link #PART_EVENTS} events is applied in one transaction, all or nothing. A larger one is
 * applied in parts of about that size, in file order, each all or nothing, each once the projections are at most
 * {@link #BACKLOG_EVENTS} events behind ({@link ReadSidePace}): otherwise every other organisation's reads after
 * their writes would wait behind the whole import (issue 37). The task's steps count the parts. The staged file is
 * removed when the task ends.
 */
@Component
class ImportIntentsWork implements TaskWork {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ImportIntentsWork.class);
    static final String TYPE = "importIntents";
    /** About this many events a part, each all or nothing. */
    static final int PART_EVENTS = 250;
    /**
     * At most this many of the import's events are not yet projected when the next part is written: another
     * organisation's read after its write waits behind no more (about a second). Counted in events, not parts: an
     * idle projection stores its progress only every half second or so, so waiting for each part alone would
     * throttle the import to that rhythm.
     */
    static final int BACKLOG_EVENTS = 1_000;

    private final ProjectCapture capture;
    private final Commands commands;
    private final JdbcTemplate jdbc;
    private final ReadSidePace pace;

    ImportIntentsWork(ProjectCapture capture, Commands commands, JdbcTemplate jdbc, ReadSidePace pace) {
        this.capture = capture;
        this.commands = commands;
        this.jdbc = jdbc;
        this.pace = pace;
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
        int applied = 0;
        int total = 0;
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
            List<IntentImportPlan.Part> parts = plan.parts(PART_EVENTS);
            total = plan.created() + plan.changed();
            context.totalSteps(1 + parts.size());
            context.stepDone(1);
            ReadSidePace.Run paced = pace.start();
            long started = System.nanoTime();
            long waited = 0;
            for (int i = 0; i < parts.size(); i++) {
                IntentImportPlan.Part part = parts.get(i);
                Long position = commands.sendTogetherAs(context.actor().userId(), part.commands(), part.labels())
                        .position();
                applied += part.intents();
                context.stepDone(2 + i);
                // the next part is written while the projections take in the last ones, up to the backlog
                if (position != null && i < parts.size() - 1) {
                    long waiting = System.nanoTime();
                    paced.awaitProjected(position - BACKLOG_EVENTS);
                    waited += System.nanoTime() - waiting;
                }
            }
            if (parts.size() > 1) {
                log.info("Task {} imported {} intents in {} parts in {} ms, {} ms of it waiting for the projections",
                        taskId, applied, parts.size(), (System.nanoTime() - started) / 1_000_000, waited / 1_000_000);
            }
            unstage(taskId);
        } catch (DomainException | ApiProblem refused) {
            // the flow changed since the upload was checked (a name taken, a parent deleted, the flow gone)
            unstage(taskId);
            String why = refused instanceof DomainException d ? d.detail() : ((ApiProblem) refused).detail();
            throw new TaskFailedException(why + (applied == 0 ? " Nothing was imported."
                    : " " + applied + " of the file's " + total + " intents to create or change were imported before "
                    + "(in file order, parents first), the rest not; importing the file again with mode skip adds "
                    + "the rest."), refused);
        } catch (TaskCancelledException cancelled) {
            unstage(taskId); // what the parts before the cancel imported stays, as the task's steps say
            throw cancelled;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TaskFailedException("The import was interrupted (the service is stopping) after " + applied
                    + " of " + total + " intents; importing the file again with mode skip adds the rest.", e);
        }
    }

    /** Kept until the import ended for good: a runner that dies before this leaves the file to the next one. */
    private void unstage(String taskId) {
        jdbc.update("DELETE FROM cmd_intent_import WHERE task_id = ?", taskId);
    }
}
