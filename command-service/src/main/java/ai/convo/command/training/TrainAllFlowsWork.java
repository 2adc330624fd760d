package ai.convo.command.training;

import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The trainAllProjectFlows task: every flow of the project, in creation order, trained in the project's primary
 * locale in mode "full", one after another within the task (flows with fewer than two intents to train are
 * skipped and counted in the log; the task fails only when no flow could be trained).
 */
@Component
class TrainAllFlowsWork implements TaskWork {

    static final String TYPE = "trainAllProjectFlows";

    private final TrainIntentsWork flows;
    private final ProjectCapture capture;
    private final JdbcTemplate jdbc;

    TrainAllFlowsWork(TrainIntentsWork flows, ProjectCapture capture, JdbcTemplate jdbc) {
        this.flows = flows;
        this.capture = capture;
        this.jdbc = jdbc;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String projectId = context.projectId().value();
        String localeId = capture.localesOf(projectId).primaryLocaleId();
        List<String> flowIds = jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ? "
                + "ORDER BY flow_id", String.class, projectId);
        int steps = 3 + CrossValidation.FOLDS;
        int trained = 0;
        for (int i = 0; i < flowIds.size(); i++) {
            if (flows.trainRefusable(context, flowIds.get(i), localeId, "full", i * steps, flowIds.size())) {
                trained++;
            }
            context.stepDone((i + 1) * steps);
        }
        if (trained == 0) {
            throw new TaskFailedException("No flow of project " + projectId + " has two enabled intents with example "
                    + "sentences in its primary locale " + localeId + "; nothing was trained.");
        }
    }
}
