package ai.convo.command.function;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.command.web.Absent;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.function.FailFunctionInstanceCommand;
import ai.convo.contract.function.FinishFunctionInstanceCommand;
import ai.convo.contract.function.FunctionInstanceFailedEvent;
import ai.convo.contract.function.FunctionInstanceFinishedEvent;
import ai.convo.contract.function.FunctionInstanceId;
import ai.convo.contract.function.FunctionInstanceLoggedEvent;
import ai.convo.contract.function.FunctionInstanceRecord;
import ai.convo.contract.function.FunctionInstanceRun;
import ai.convo.contract.function.FunctionInstanceStartedEvent;
import ai.convo.contract.function.FunctionInstanceStatus;
import ai.convo.contract.function.FunctionInstanceStoppedEvent;
import ai.convo.contract.function.FunctionInstanceTriggeredEvent;
import ai.convo.contract.function.RecordFunctionInstanceLogsCommand;
import ai.convo.contract.function.StartFunctionInstanceCommand;
import ai.convo.contract.function.StopFunctionInstanceCommand;
import ai.convo.contract.function.TriggerFunctionCommand;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * One run of a Function: {@code queued -> active -> done | error}; a stop ends a queued or active instance {@code error}.
 * It keeps the code as it was when triggered, so the run is the code the caller triggered, whatever edits follow.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class FunctionInstanceAggregate {

    @AggregateIdentifier
    private String instanceId;
    private String functionId;
    private String projectId;
    private String organisationId;
    private Map<String, Object> parameters;
    private String code;
    private String taskId;
    private FunctionInstanceStatus status;

    protected FunctionInstanceAggregate() {
        // for Axon
    }

    /** The function was checked (visible, enabled) by the same transaction's {@code CheckFunctionRunnableCommand}. */
    @CommandHandler
    public FunctionInstanceAggregate(TriggerFunctionCommand command) {
        apply(new FunctionInstanceTriggeredEvent(command.functionInstanceId().value(), command.functionId().value(),
                command.projectId().value(), command.actor().organisationId(), command.trigger(),
                command.parameters() == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(command.parameters())),
                command.code(), command.taskId().value(), command.actor().userId(), command.at()));
    }

    @CommandHandler
    public FunctionInstanceRun handle(StartFunctionInstanceCommand command) {
        if (status.terminal()) {
            throw DomainException.conflict("Function instance " + instanceId + " is " + status + "; it cannot start.",
                    Map.of("status", status.name()));
        }
        boolean wasActive = status == FunctionInstanceStatus.active;
        if (!wasActive) {
            apply(new FunctionInstanceStartedEvent(instanceId, functionId, projectId, organisationId, command.runnerId(),
                    command.at()));
        }
        return new FunctionInstanceRun(functionId, code, parameters, wasActive);
    }

    @CommandHandler
    public void handle(RecordFunctionInstanceLogsCommand command) {
        requireActive("log");
        if (command.lines() != null && !command.lines().isEmpty()) {
            apply(new FunctionInstanceLoggedEvent(instanceId, functionId, projectId, organisationId,
                    List.copyOf(command.lines()), command.at()));
        }
    }

    @CommandHandler
    public void handle(FinishFunctionInstanceCommand command) {
        requireActive("finish");
        apply(new FunctionInstanceFinishedEvent(instanceId, functionId, projectId, organisationId, command.at()));
    }

    /** A queued instance can fail too: its runner found it could not run it. */
    @CommandHandler
    public void handle(FailFunctionInstanceCommand command) {
        if (status.terminal()) {
            throw DomainException.conflict("Function instance " + instanceId + " is " + status + " already.",
                    Map.of("status", status.name()));
        }
        String error = command.error() == null || command.error().isBlank() ? "The run failed." : command.error();
        if (error.length() > FunctionInstanceRecord.MAX_ERROR_LENGTH) {
            error = error.substring(0, FunctionInstanceRecord.MAX_ERROR_LENGTH - 3) + "...";
        }
        apply(new FunctionInstanceFailedEvent(instanceId, functionId, projectId, organisationId, error, command.at()));
    }

    /**
     * Tenancy first: another organisation's instance (or one of another function) answers exactly like a missing one. Stopping an instance that
     * has ended changes nothing (idempotent). Answers the task to cancel while the run may still be going.
     */
    @CommandHandler
    public String handle(StopFunctionInstanceCommand command) {
        if (!organisationId.equals(command.actor().organisationId()) || !functionId.equals(command.functionId().value())) {
            throw Absent.of(FunctionInstanceId.class, instanceId);
        }
        if (status.terminal()) {
            return null;
        }
        apply(new FunctionInstanceStoppedEvent(instanceId, functionId, projectId, organisationId,
                command.actor().userId(), command.at()));
        return taskId;
    }

    private void requireActive(String what) {
        if (status != FunctionInstanceStatus.active) {
            throw DomainException.conflict("Function instance " + instanceId + " is " + status + "; only an active "
                    + "instance can " + what + ".", Map.of("status", status.name()));
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(FunctionInstanceTriggeredEvent event) {
        instanceId = event.functionInstanceId();
        functionId = event.functionId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        parameters = event.parameters();
        code = event.code();
        taskId = event.taskId();
        status = FunctionInstanceStatus.queued;
    }

    @EventSourcingHandler
    void on(FunctionInstanceStartedEvent event) {
        status = FunctionInstanceStatus.active;
    }

    @EventSourcingHandler
    void on(FunctionInstanceFinishedEvent event) {
        status = FunctionInstanceStatus.done;
    }

    @EventSourcingHandler
    void on(FunctionInstanceFailedEvent event) {
        status = FunctionInstanceStatus.error;
    }

    @EventSourcingHandler
    void on(FunctionInstanceStoppedEvent event) {
        status = FunctionInstanceStatus.error;
    }
}
