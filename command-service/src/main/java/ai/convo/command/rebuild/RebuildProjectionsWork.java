package ai.convo.command.rebuild;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.contract.rebuild.Projections;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The Task of a projection rebuild. The rebuild itself runs in a query replica (where the projections are): this work
 * asks for it in projection_rebuild (once, under the task's id, so a runner that takes the task over follows the same
 * rebuild), reports its progress as the task's steps, and passes a cancel on. The task ends as the rebuild does.
 */
@Component
class RebuildProjectionsWork implements TaskWork {

    private final JdbcTemplate jdbc;
    private final long pollMillis;

    RebuildProjectionsWork(JdbcTemplate jdbc, @Value("${app.rebuild.follow-every:500ms}") java.time.Duration poll) {
        this.jdbc = jdbc;
        this.pollMillis = poll.toMillis();
    }

    @Override
    public String type() {
        return Projections.REBUILD_TASK;
    }

    @Override
    public void run(TaskContext context) throws Exception {
        String id = context.taskId().value();
        Map<String, Object> parameters = context.parameters();
        @SuppressWarnings("unchecked")
        List<String> projections = (List<String>) parameters.get("projections");
        if (projections == null || projections.isEmpty() || !Projections.NAMES.containsAll(projections)) {
            throw new TaskFailedException("projections must name one or more of " + Projections.NAMES + ".");
        }
        jdbc.update("INSERT INTO projection_rebuild (id, projections, require_identical, requested_by) "
                        + "VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING", id, projections.toArray(String[]::new),
                Boolean.TRUE.equals(parameters.get("requireIdentical")), context.actor().userId());
        boolean cancelling = false;
        while (true) {
            Map<String, Object> row = jdbc.queryForMap("SELECT status, events_done, events_total, fail_reason "
                    + "FROM projection_rebuild WHERE id = ?", id);
            switch ((String) row.get("status")) {
                case "done" -> {
                    return;
                }
                case "cancelled" -> throw new TaskCancelledException();
                case "failed" -> throw new TaskFailedException((String) row.get("fail_reason"));
                default -> {
                    // still running
                }
            }
            int total = (int) Math.min(Integer.MAX_VALUE, ((Number) row.get("events_total")).longValue());
            int done = (int) Math.min(total, ((Number) row.get("events_done")).longValue());
            if (!cancelling) {
                try {
                    context.totalSteps(total);
                    context.stepDone(done);
                } catch (TaskCancelledException cancel) {
                    // The query replica drops what it built and says 'cancelled'; until then the task is cancelling.
                    jdbc.update("UPDATE projection_rebuild SET cancel_requested = true WHERE id = ?", id);
                    cancelling = true;
                }
            }
            Thread.sleep(pollMillis);
        }
    }
}
