package ai.convo.command.task;

import ai.convo.contract.task.TaskId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.task.CompleteTaskCommand;
import ai.convo.contract.task.ConfirmTaskCancelledCommand;
import ai.convo.contract.task.CreateTaskCommand;
import ai.convo.contract.task.FailTaskCommand;
import ai.convo.contract.task.RecordTaskProgressCommand;
import ai.convo.contract.task.RequestTaskCancelCommand;
import ai.convo.contract.task.StartTaskCommand;
import ai.convo.contract.task.TaskCancelRequestedEvent;
import ai.convo.contract.task.TaskCancelledEvent;
import ai.convo.contract.task.TaskCompletedEvent;
import ai.convo.contract.task.TaskCreatedEvent;
import ai.convo.contract.task.TaskFailedEvent;
import ai.convo.contract.task.TaskProgressedEvent;
import ai.convo.contract.task.TaskRecord;
import ai.convo.contract.task.TaskStartedEvent;
import ai.convo.contract.task.TaskStatus;
import ai.convo.contract.task.SystemTasks;
import ai.convo.contract.identity.Role;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A background Task. Statuses move only along {@code queued -> active -> done | error} and
 * {@code queued | active -> cancelling -> cancelled}. A runner works on one attempt at a time: {@link #attempt} counts
 * the starts, and every command of a runner names its attempt, so a runner that lost its lease (and was replaced)
 * can change nothing any more.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class TaskAggregate {

    @AggregateIdentifier
    private String taskId;
    private String projectId;
    private String organisationId;
    private String type;
    private Map<String, Object> parameters;
    private TaskStatus status;
    private int attempt;
    private int currentStep;
    private int totalStep;
    private String failReason;
    private long createdAt;
    private long lastChanged;
    private String createdBy;
    private String lastChangedBy;

    protected TaskAggregate() {
        // for Axon
    }

    @CommandHandler
    public TaskAggregate(CreateTaskCommand command, ProjectLookup projects) {
        Actor actor = command.actor();
        if (command.projectId().value().equals(SystemTasks.PROJECT_ID)) {
            if (actor.role() != Role.SYSTEM_ADMIN) {
                throw DomainException.forbidden("Only a system administrator can create a task of the system.");
            }
        } else {
            projects.requireVisible(command.projectId().value(), actor);
        }
        String type = command.type();
        if (type == null || type.isBlank() || type.length() > TaskRecord.MAX_TYPE_LENGTH) {
            throw DomainException.invalid("type", "type must be a string of 1 to " + TaskRecord.MAX_TYPE_LENGTH
                    + " characters (not blank).");
        }
        apply(new TaskCreatedEvent(command.taskId().value(), command.projectId().value(), actor.organisationId(), type,
                command.parameters() == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(command.parameters())), actor.userId(),
                actor.role().name(), command.at()));
    }

    @CommandHandler
    public void handle(StartTaskCommand command) {
        if (status != TaskStatus.queued && status != TaskStatus.active) {
            throw DomainException.conflict("Task " + taskId + " is " + status + "; only a queued task, or an active one "
                    + "whose runner stopped responding, can start.");
        }
        if (command.attempt() != attempt + 1) {
            throw DomainException.conflict("Task " + taskId + " has had " + attempt + " attempts; the next start must be "
                    + "attempt " + (attempt + 1) + ", not " + command.attempt() + ".");
        }
        if (command.runnerId() == null || command.runnerId().isBlank()) {
            throw DomainException.invalid("runnerId", "runnerId must name the runner that starts the task.");
        }
        apply(new TaskStartedEvent(taskId, projectId, organisationId, command.runnerId(), command.attempt(), command.at()));
    }

    /** Answers the status after the change, so that the running work learns of a cancel request at once. */
    @CommandHandler
    public TaskStatus handle(RecordTaskProgressCommand command) {
        requireRunning(command.attempt(), "report progress");
        int current = command.currentStep() == null ? currentStep : command.currentStep();
        int total = command.totalStep() == null ? totalStep : command.totalStep();
        if (current < 0 || total < 0) {
            throw DomainException.invalid("Steps are counts: currentStep and totalStep must be 0 or more; got "
                    + current + " of " + total + ".");
        }
        if (total > 0 && current > total) {
            throw DomainException.invalid("currentStep " + current + " is beyond totalStep " + total + ".");
        }
        if (current != currentStep || total != totalStep) {
            apply(new TaskProgressedEvent(taskId, projectId, organisationId, current, total, command.at()));
        }
        return status;
    }

    @CommandHandler
    public void handle(CompleteTaskCommand command) {
        requireActive(command.attempt(), "complete");
        apply(new TaskCompletedEvent(taskId, projectId, organisationId, command.at()));
    }

    @CommandHandler
    public void handle(FailTaskCommand command) {
        requireActive(command.attempt(), "fail");
        String reason = command.failReason();
        if (reason == null || reason.isBlank() || reason.length() > TaskRecord.MAX_FAIL_REASON_LENGTH) {
            throw DomainException.invalid("failReason", "failReason must be a text of 1 to "
                    + TaskRecord.MAX_FAIL_REASON_LENGTH + " characters.");
        }
        apply(new TaskFailedEvent(taskId, projectId, organisationId, reason, command.at()));
    }

    /**
     * Tenancy first: another organisation's task answers exactly like a missing one. Asking again while the task is
     * cancelling or cancelled changes nothing and answers the same.
     */
    @CommandHandler
    public TaskRecord handle(RequestTaskCancelCommand command) {
        if (!organisationId.equals(command.actor().organisationId())) {
            throw Absent.of(TaskId.class, command.taskId().value());
        }
        switch (status) {
            case queued, active -> apply(new TaskCancelRequestedEvent(taskId, projectId, organisationId,
                    command.actor().userId(), command.at()));
            case cancelling, cancelled -> {
                // idempotent: the cancel was asked for already
            }
            case done, error -> throw DomainException.conflict("Task " + taskId + " is " + status + "; only a queued or "
                    + "active task can be cancelled.", Map.of("status", status.name()));
        }
        return record();
    }

    @CommandHandler
    public void handle(ConfirmTaskCancelledCommand command) {
        if (status == TaskStatus.cancelled) {
            return;
        }
        if (status != TaskStatus.cancelling) {
            throw DomainException.conflict("Task " + taskId + " is " + status + "; only a cancelling task can be "
                    + "confirmed cancelled.");
        }
        requireAttempt(command.attempt(), "confirm the cancel");
        apply(new TaskCancelledEvent(taskId, projectId, organisationId, command.at()));
    }

    // ---- guard clauses

    private void requireRunning(int commandAttempt, String what) {
        if (status != TaskStatus.active && status != TaskStatus.cancelling) {
            throw DomainException.conflict("Task " + taskId + " is " + status + "; only an active or cancelling task can "
                    + what + ".");
        }
        requireAttempt(commandAttempt, what);
    }

    private void requireActive(int commandAttempt, String what) {
        if (status != TaskStatus.active) {
            throw DomainException.conflict("Task " + taskId + " is " + status + "; only an active task can " + what + ".",
                    Map.of("status", status.name()));
        }
        requireAttempt(commandAttempt, what);
    }

    /** A runner whose attempt was superseded by a takeover has lost the task. */
    private void requireAttempt(int commandAttempt, String what) {
        if (commandAttempt != attempt) {
            throw DomainException.conflict("Attempt " + commandAttempt + " of task " + taskId + " cannot " + what
                    + ": the task is on attempt " + attempt + ".");
        }
    }

    TaskRecord record() {
        return new TaskRecord(taskId, status, type, parameters, currentStep, totalStep, failReason, createdAt,
                lastChanged, createdBy, lastChangedBy);
    }

    // ---- state (event sourcing handlers only assign). Runner moves keep lastChangedBy: no user made them.

    @EventSourcingHandler
    void on(TaskCreatedEvent event) {
        taskId = event.taskId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        type = event.type();
        parameters = event.parameters();
        status = TaskStatus.queued;
        createdAt = event.createdAt();
        lastChanged = event.createdAt();
        createdBy = event.createdBy();
        lastChangedBy = event.createdBy();
    }

    @EventSourcingHandler
    void on(TaskStartedEvent event) {
        status = TaskStatus.active;
        attempt = event.attempt();
        currentStep = 0;
        totalStep = 0;
        lastChanged = event.startedAt();
    }

    @EventSourcingHandler
    void on(TaskProgressedEvent event) {
        currentStep = event.currentStep();
        totalStep = event.totalStep();
        lastChanged = event.at();
    }

    @EventSourcingHandler
    void on(TaskCompletedEvent event) {
        status = TaskStatus.done;
        // The last step is the work's commit, which it cannot report before it happens: done means all steps.
        currentStep = Math.max(currentStep, totalStep);
        lastChanged = event.completedAt();
    }

    @EventSourcingHandler
    void on(TaskFailedEvent event) {
        status = TaskStatus.error;
        failReason = event.failReason();
        lastChanged = event.failedAt();
    }

    @EventSourcingHandler
    void on(TaskCancelRequestedEvent event) {
        status = TaskStatus.cancelling;
        lastChanged = event.requestedAt();
        lastChangedBy = event.requestedBy();
    }

    @EventSourcingHandler
    void on(TaskCancelledEvent event) {
        status = TaskStatus.cancelled;
        lastChanged = event.cancelledAt();
    }
}
