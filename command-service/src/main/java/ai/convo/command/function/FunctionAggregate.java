package ai.convo.command.function;

import ai.convo.contract.function.FunctionId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.function.CheckFunctionRunnableCommand;
import ai.convo.contract.function.CreateFunctionCommand;
import ai.convo.contract.function.DeleteFunctionCommand;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionPatch;
import ai.convo.contract.function.FunctionRecord;
import ai.convo.contract.function.FunctionRunnable;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.function.UpdateFunctionCommand;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A Function of a project. The project must exist and be the caller's, on creation and on every later change
 * (a deleted project takes its functions with it); a function of another organisation answers as a missing one.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class FunctionAggregate {

    @AggregateIdentifier
    private String functionId;
    private String projectId;
    private String organisationId;
    private FunctionRecord function;

    protected FunctionAggregate() {
        // for Axon
    }

    @CommandHandler
    public FunctionAggregate(CreateFunctionCommand command, ProjectLookup projects) {
        projects.requireVisible(command.projectId().value(), command.actor());
        requireName(command.name());
        requireCode(command.code());
        Actor actor = command.actor();
        apply(new FunctionCreatedEvent(command.functionId().value(), command.projectId().value(),
                actor.organisationId(), command.referenceId(), command.name(), command.code(), command.disabled(),
                actor.userId(), command.at()));
    }

    @CommandHandler
    public FunctionRecord handle(UpdateFunctionCommand command, ProjectLookup projects) {
        requireVisible(command.actor(), projects);
        FunctionPatch patch = command.patch();
        List<String> changed = new ArrayList<>();

        String name = function.name();
        if (patch.name() != null && !patch.name().equals(name)) {
            requireName(patch.name());
            name = patch.name();
            changed.add("name");
        }
        String code = function.code();
        if (patch.code() != null && !patch.code().equals(code)) {
            requireCode(patch.code());
            code = patch.code();
            changed.add("code");
        }
        boolean disabled = function.disabled();
        if (patch.disabled() != null && patch.disabled() != disabled) {
            disabled = patch.disabled();
            changed.add("isDisabled");
        }
        if (changed.isEmpty()) {
            return function;
        }
        apply(new FunctionUpdatedEvent(functionId, projectId, organisationId, changed, name, code, disabled,
                command.actor().userId(), command.at()));
        return function;
    }

    /** Triggering reads the function: it must be the caller's and enabled. Changes nothing. */
    @CommandHandler
    public FunctionRunnable handle(CheckFunctionRunnableCommand command, ProjectLookup projects) {
        requireVisible(command.actor(), projects);
        if (function.disabled()) {
            throw DomainException.conflict("Function " + functionId + " is disabled; enable it (isDisabled: false) "
                    + "before triggering it.", java.util.Map.of("isDisabled", true));
        }
        return new FunctionRunnable(projectId, function.code());
    }

    @CommandHandler
    public void handle(DeleteFunctionCommand command, ProjectLookup projects) {
        requireVisible(command.actor(), projects);
        apply(new FunctionDeletedEvent(functionId, projectId, organisationId, command.actor().userId(), command.at()));
    }

    // ---- guard clauses

    /** Another organisation's function, or one whose project is gone, answers exactly as a missing one does. */
    private void requireVisible(Actor actor, ProjectLookup projects) {
        if (!organisationId.equals(actor.organisationId())) {
            throw notFound();
        }
        try {
            projects.requireVisible(projectId, actor);
        } catch (DomainException projectGone) {
            throw notFound();
        }
    }

    private DomainException notFound() {
        return Absent.of(FunctionId.class, functionId);
    }

    private static void requireName(String name) {
        if (name == null || name.isBlank() || name.length() > FunctionRecord.MAX_NAME_LENGTH) {
            throw DomainException.invalid("name", "name must be a string of 1 to " + FunctionRecord.MAX_NAME_LENGTH
                    + " characters (not blank).");
        }
    }

    private static void requireCode(String code) {
        if (code == null) {
            throw DomainException.invalid("code", "code is required: a string of at most "
                    + FunctionRecord.MAX_CODE_LENGTH + " characters.");
        }
        if (code.length() > FunctionRecord.MAX_CODE_LENGTH) {
            throw DomainException.invalid("code", "code must be at most " + FunctionRecord.MAX_CODE_LENGTH
                    + " characters; got " + code.length() + ".");
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(FunctionCreatedEvent event) {
        functionId = event.functionId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        function = new FunctionRecord(event.functionId(), event.name(), event.code(), event.referenceId(),
                event.disabled(), event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy());
    }

    @EventSourcingHandler
    void on(FunctionUpdatedEvent event) {
        function = new FunctionRecord(function.id(), event.name(), event.code(), function.referenceId(),
                event.isDisabled(), function.createdAt(), event.changedAt(), function.createdBy(), event.changedBy());
    }

    @EventSourcingHandler
    void on(FunctionDeletedEvent event) {
        markDeleted();
    }
}
