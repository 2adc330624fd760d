package ai.convo.query.function;

import ai.convo.contract.function.FunctionInstanceFailedEvent;
import ai.convo.contract.function.FunctionInstanceFinishedEvent;
import ai.convo.contract.function.FunctionInstanceLoggedEvent;
import ai.convo.contract.function.FunctionInstanceRecord;
import ai.convo.contract.function.FunctionInstanceStartedEvent;
import ai.convo.contract.function.FunctionInstanceStoppedEvent;
import ai.convo.contract.function.FunctionInstanceTriggeredEvent;
import ai.convo.http.media.Renderer;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * The function instance read model; plain code that a test can feed events. Only instance events change it (sequenced
 * per instance, the default). A stop is the vendor's {@code error}, with {@link FunctionInstanceRecord#STOPPED}.
 */
@Component
@ProcessingGroup(FunctionInstanceProjection.GROUP)
public class FunctionInstanceProjection {

    public static final String GROUP = "function-instances";

    private final BatchingJdbcTemplate jdbc;

    public FunctionInstanceProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(FunctionInstanceTriggeredEvent event) {
        jdbc.write("INSERT INTO function_instance_view (id, function_id, project_id, organisation_id, trigger, status, "
                        + "parameters, created_at, created_by) VALUES (?, ?, ?, ?, ?, 'queued', ?::jsonb, ?, ?) "
                        + "ON CONFLICT (id) DO NOTHING", event.functionInstanceId(), event.functionId(),
                event.projectId(), event.organisationId(), event.trigger(),
                Renderer.JSON.writeValueAsString(event.parameters()), event.triggeredAt(), event.triggeredBy());
    }

    @EventHandler
    public void on(FunctionInstanceStartedEvent event) {
        jdbc.write("UPDATE function_instance_view SET status = 'active' WHERE id = ? AND status = 'queued'",
                event.functionInstanceId());
    }

    @EventHandler
    public void on(FunctionInstanceLoggedEvent event) {
        jdbc.write("UPDATE function_instance_view SET logs = logs || ?::jsonb WHERE id = ?",
                Renderer.JSON.writeValueAsString(event.lines()), event.functionInstanceId());
    }

    @EventHandler
    public void on(FunctionInstanceFinishedEvent event) {
        jdbc.write("UPDATE function_instance_view SET status = 'done', finished_at = ? WHERE id = ?",
                event.finishedAt(), event.functionInstanceId());
    }

    @EventHandler
    public void on(FunctionInstanceFailedEvent event) {
        jdbc.write("UPDATE function_instance_view SET status = 'error', error = ?, finished_at = ? WHERE id = ?",
                event.error(), event.failedAt(), event.functionInstanceId());
    }

    @EventHandler
    public void on(FunctionInstanceStoppedEvent event) {
        jdbc.write("UPDATE function_instance_view SET status = 'error', error = ?, finished_at = ? WHERE id = ?",
                FunctionInstanceRecord.STOPPED, event.stoppedAt(), event.functionInstanceId());
    }
}
