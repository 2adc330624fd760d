package ai.convo.command.snapshot;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The createProjectByTemplate task: fills the project the request created (with its primary locale) with the
 * template's content, as a restore does (RestoreSnapshotWork): in ONE transaction with the project's rows locked,
 * the events of the ordinary commands, with the task's author, all or nothing. The content is what the project holds
 * plus the template's flows it lacks (matched by their referenceIds), so a repeated run adds nothing.
 */
@Component
class CreateProjectByTemplateWork implements TaskWork {

    static final String TYPE = "createProjectByTemplate";

    private final ProjectCapture capture;
    private final JdbcTemplate jdbc;
    private final EventStore events;
    private final TransactionTemplate write;

    CreateProjectByTemplateWork(ProjectCapture capture, JdbcTemplate jdbc, EventStore events,
                                PlatformTransactionManager transactions) {
        this.capture = capture;
        this.jdbc = jdbc;
        this.events = events;
        this.write = new TransactionTemplate(transactions);
        write.setTimeout(RestoreSnapshotWork.TIMEOUT_SECONDS);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String template = String.valueOf(context.parameters().get("template"));
        String language = String.valueOf(context.parameters().get("locale"));
        String projectId = context.projectId().value();
        context.totalSteps(1);
        try {
            write.executeWithoutResult(status -> apply(context, template, language, projectId));
        } catch (DataAccessException | org.axonframework.common.AxonException conflict) {
            throw new TaskFailedException("The project changed while the template was applied, or could not be "
                    + "written; nothing of the template was added.", conflict);
        }
    }

    private void apply(TaskContext context, String template, String language, String projectId) {
        List<String> project = jdbc.queryForList("SELECT project_id FROM cmd_project_lookup WHERE project_id = ? "
                + "FOR UPDATE", String.class, projectId);
        if (project.isEmpty()) {
            throw new TaskFailedException("Project " + projectId + " no longer exists; the template was not applied.");
        }
        jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ? ORDER BY flow_id FOR UPDATE",
                String.class, projectId);
        ProjectCapture.Captured current = capture.capture(projectId);
        ProjectCapture.Locale primary = current.locales.get(current.primaryLocaleId);
        if (primary == null) {
            throw new TaskFailedException("Project " + projectId + " has no primary locale; the template was not "
                    + "applied.");
        }
        SnapshotContent now = ProjectCapture.toContent(current);
        Set<String> held = new HashSet<>();
        now.flows().forEach(flow -> held.add(flow.referenceId()));
        List<SnapshotContent.Flow> flows = new ArrayList<>(now.flows());
        ProjectTemplates.flows(template, projectId, language, primary.referenceId).stream()
                .filter(flow -> !held.contains(flow.referenceId())).forEach(flows::add);
        SnapshotContent wanted = new SnapshotContent(now.format(), now.locales(), now.tokens(), now.functions(), flows);
        List<DomainEventMessage<?>> plan = RestorePlan.build(wanted, current, projectId, context.actor().userId(),
                Clock.nowSeconds());
        if (context.cancelRequested()) {
            throw new TaskCancelledException();
        }
        events.publish(plan);
        context.stepDone(1);
    }
}
