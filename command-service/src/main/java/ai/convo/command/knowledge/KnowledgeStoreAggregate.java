package ai.convo.command.knowledge;

import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.CreateKnowledgeStoreCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeStoreCommand;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeStorePatch;
import ai.convo.contract.knowledge.KnowledgeStoreRecord;
import ai.convo.contract.knowledge.KnowledgeStoreUpdatedEvent;
import ai.convo.contract.knowledge.UpdateKnowledgeStoreCommand;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A Knowledge Store of a project. The project must exist and be the caller's; a store of another organisation,
 * or of a deleted project, answers as a missing one. Its sources are their own aggregates and check the store
 * through {@link KnowledgeStoreLookup}, so deleting the store makes them unreachable in the same transaction.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class KnowledgeStoreAggregate {

    @AggregateIdentifier
    private String storeId;
    private String projectId;
    private String organisationId;
    private String referenceId;
    private String name;
    private String description;
    private String language;
    private long createdAt;
    private String createdBy;
    private long lastChanged;
    private String lastChangedBy;

    protected KnowledgeStoreAggregate() {
        // for Axon
    }

    @CommandHandler
    public KnowledgeStoreAggregate(CreateKnowledgeStoreCommand command, ProjectLookup projects) {
        projects.requireVisible(command.projectId().value(), command.actor());
        require("name", KnowledgeRules.nameProblem(command.name()));
        require("description", KnowledgeRules.descriptionProblem(command.description()));
        if (command.language() == null) {
            throw DomainException.invalid("language", "language is required: one of the NLU languages, e.g. en-US.");
        }
        Actor actor = command.actor();
        apply(new KnowledgeStoreCreatedEvent(command.storeId().value(), command.projectId().value(),
                actor.organisationId(), command.referenceId(), command.name(), command.description(),
                command.language().code(), actor.userId(), command.at()));
    }

    /** Answers the store as it is afterwards; a PATCH that changes nothing stores nothing. */
    @CommandHandler
    public KnowledgeStoreRecord handle(UpdateKnowledgeStoreCommand command, ProjectLookup projects) {
        requireVisible(command.actor(), projects);
        KnowledgeStorePatch patch = command.patch();
        List<String> changed = new ArrayList<>();
        String newName = name;
        if (patch.name() != null && !patch.name().equals(name)) {
            require("name", KnowledgeRules.nameProblem(patch.name()));
            newName = patch.name();
            changed.add("name");
        }
        String newDescription = description;
        if (patch.description() != null && !patch.description().equals(description)) {
            require("description", KnowledgeRules.descriptionProblem(patch.description()));
            newDescription = patch.description();
            changed.add("description");
        }
        if (!changed.isEmpty()) {
            apply(new KnowledgeStoreUpdatedEvent(storeId, projectId, organisationId, changed, newName, newDescription,
                    command.actor().userId(), command.at()));
        }
        return new KnowledgeStoreRecord(storeId, referenceId, name, description, language, projectId, createdAt,
                lastChanged, createdBy, lastChangedBy);
    }

    @CommandHandler
    public void handle(DeleteKnowledgeStoreCommand command, ProjectLookup projects) {
        requireVisible(command.actor(), projects);
        apply(new KnowledgeStoreDeletedEvent(storeId, projectId, organisationId, command.actor().userId(), command.at()));
    }

    // ---- guard clauses

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
        return Absent.of(KnowledgeStoreId.class, storeId);
    }

    static void require(String field, String problem) {
        if (problem != null) {
            throw DomainException.invalid(field, problem);
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(KnowledgeStoreCreatedEvent event) {
        storeId = event.storeId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        referenceId = event.referenceId();
        name = event.name();
        description = event.description();
        language = event.language();
        createdAt = event.createdAt();
        createdBy = event.createdBy();
        lastChanged = event.createdAt();
        lastChangedBy = event.createdBy();
    }

    @EventSourcingHandler
    void on(KnowledgeStoreUpdatedEvent event) {
        name = event.name();
        description = event.description();
        lastChanged = event.changedAt();
        lastChangedBy = event.changedBy();
    }

    @EventSourcingHandler
    void on(KnowledgeStoreDeletedEvent event) {
        markDeleted();
    }
}
