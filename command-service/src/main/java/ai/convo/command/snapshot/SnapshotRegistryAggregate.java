package ai.convo.command.snapshot;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.snapshot.AbandonSnapshotCommand;
import ai.convo.contract.snapshot.CompleteSnapshotCommand;
import ai.convo.contract.snapshot.DeleteSnapshotCommand;
import ai.convo.contract.snapshot.RequestSnapshotCommand;
import ai.convo.contract.snapshot.RequestSnapshotDeletionCommand;
import ai.convo.contract.snapshot.RequestSnapshotRestoreCommand;
import ai.convo.contract.snapshot.SnapshotAbandonedEvent;
import ai.convo.contract.snapshot.SnapshotCreatedEvent;
import ai.convo.contract.snapshot.SnapshotResourcesListedEvent;
import ai.convo.contract.snapshot.SnapshotDeletedEvent;
import ai.convo.contract.snapshot.SnapshotDeletionRequestedEvent;
import ai.convo.contract.snapshot.SnapshotLimits;
import ai.convo.contract.snapshot.SnapshotRequestedEvent;
import ai.convo.contract.snapshot.SnapshotRestoreRequestedEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * The snapshots of one project. "At most 10 per project" counts pending (being captured), existing and
 * being-deleted snapshots, so the limit also holds under concurrent POSTs: they all go through this one
 * aggregate. A snapshot's life: pending -> created -> deleting -> gone; pending -> abandoned (its task failed or
 * was cancelled) frees the slot at once.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class SnapshotRegistryAggregate {

    enum Status { PENDING, CREATED, DELETING }

    /** What the registry remembers of each snapshot that holds a slot. */
    record Entry(Status status, String name, String description, String createdBy, String deletionRequestedBy) {
        Entry with(Status next, String deleter) {
            return new Entry(next, name, description, createdBy, deleter);
        }
    }

    @AggregateIdentifier
    private String registryId;
    private String projectId;
    private String organisationId;
    private final Map<String, Entry> snapshots = new LinkedHashMap<>();

    protected SnapshotRegistryAggregate() {
        // for Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public void handle(RequestSnapshotCommand command, ProjectLookup projects) {
        Actor actor = command.actor();
        projects.requireVisible(command.projectId().value(), actor);
        requireName(command.name());
        requireDescription(command.description());
        String id = command.snapshotId().value();
        if (snapshots.containsKey(id)) {
            throw DomainException.conflict("A snapshot with id " + id + " already exists.");
        }
        if (snapshots.size() >= SnapshotLimits.MAX_PER_PROJECT) {
            throw DomainException.conflict("Project " + command.projectId().value() + " already has "
                    + snapshots.size() + " snapshots (including those being created or deleted); a project holds at most "
                    + SnapshotLimits.MAX_PER_PROJECT + ". Delete one first.",
                    Map.of("limit", SnapshotLimits.MAX_PER_PROJECT, "snapshots", snapshots.size()));
        }
        apply(new SnapshotRequestedEvent(id, command.projectId().value(), actor.organisationId(),
                command.taskId().value(), command.name(), command.description() == null ? "" : command.description(),
                actor.userId(), command.at()));
    }

    @CommandHandler
    public void handle(CompleteSnapshotCommand command) {
        String id = command.snapshotId().value();
        Entry entry = snapshots.get(id);
        if (entry == null) {
            throw DomainException.conflict("Snapshot " + id + " is not pending (it was abandoned or never requested).");
        }
        if (entry.status() != Status.PENDING) {
            return; // a repeated task run completing again: already done
        }
        if (command.hash() == null || !command.hash().matches("^[0-9a-f]{64}$")) {
            throw DomainException.invalid("hash", "hash must be 64 lowercase hex characters (SHA-256).");
        }
        apply(new SnapshotCreatedEvent(id, projectId, organisationId, entry.name(), entry.description(),
                command.hash(), command.counts(), entry.createdBy(), command.at()));
        if (command.resources() != null && !command.resources().isEmpty()) {
            apply(new SnapshotResourcesListedEvent(id, projectId, organisationId, command.resources(), command.at()));
        }
    }

    @CommandHandler
    public void handle(AbandonSnapshotCommand command) {
        String id = command.snapshotId().value();
        Entry entry = snapshots.get(id);
        if (entry == null || entry.status() != Status.PENDING) {
            return; // nothing pending to release: a repeated or late abandon changes nothing
        }
        apply(new SnapshotAbandonedEvent(id, projectId, organisationId, command.reason(), command.at()));
    }

    @CommandHandler
    public void handle(RequestSnapshotDeletionCommand command) {
        String id = command.snapshotId().value();
        Entry entry = requireVisible(id, command.actor());
        if (entry.status() == Status.PENDING) {
            throw DomainException.conflict("Snapshot " + id + " is still being created; delete it once its task is done.");
        }
        if (entry.status() == Status.DELETING) {
            throw DomainException.conflict("Snapshot " + id + " is already being deleted.");
        }
        apply(new SnapshotDeletionRequestedEvent(id, projectId, organisationId, command.taskId().value(),
                command.actor().userId(), command.at()));
    }

    @CommandHandler
    public void handle(DeleteSnapshotCommand command) {
        String id = command.snapshotId().value();
        Entry entry = snapshots.get(id);
        if (entry == null) {
            return; // already gone: a repeated task run
        }
        if (entry.status() != Status.DELETING) {
            throw DomainException.conflict("Snapshot " + id + " was not asked to be deleted.");
        }
        apply(new SnapshotDeletedEvent(id, projectId, organisationId, entry.deletionRequestedBy(), command.at()));
    }

    @CommandHandler
    public void handle(RequestSnapshotRestoreCommand command, ProjectLookup projects) {
        String id = command.snapshotId().value();
        Entry entry = requireVisible(id, command.actor());
        if (entry.status() != Status.CREATED) {
            throw DomainException.conflict("Snapshot " + id + " is " + (entry.status() == Status.PENDING
                    ? "still being created" : "being deleted") + " and cannot be restored.");
        }
        String target = command.targetProjectId().value();
        projects.requireVisible(target, command.actor());
        apply(new SnapshotRestoreRequestedEvent(id, projectId, organisationId, target, command.taskId().value(),
                command.actor().userId(), command.at()));
    }

    // ---- guard clauses

    /** A snapshot of another organisation answers exactly as a missing one does. */
    private Entry requireVisible(String snapshotId, Actor actor) {
        Entry entry = snapshots.get(snapshotId);
        if (entry == null || !organisationId.equals(actor.organisationId())) {
            throw DomainException.notFound("Snapshot " + snapshotId + " does not exist.");
        }
        return entry;
    }

    private static void requireName(String name) {
        if (name == null || name.isBlank() || name.length() > SnapshotLimits.MAX_NAME_LENGTH) {
            throw DomainException.invalid("name", "name must be a string of 1 to " + SnapshotLimits.MAX_NAME_LENGTH
                    + " characters (not blank).");
        }
    }

    private static void requireDescription(String description) {
        if (description != null && description.length() > SnapshotLimits.MAX_DESCRIPTION_LENGTH) {
            throw DomainException.invalid("description", "description must be at most "
                    + SnapshotLimits.MAX_DESCRIPTION_LENGTH + " characters.");
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(SnapshotRequestedEvent event) {
        registryId = "snapshots-" + event.projectId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        snapshots.put(event.snapshotId(), new Entry(Status.PENDING, event.name(), event.description(),
                event.requestedBy(), null));
    }

    @EventSourcingHandler
    void on(SnapshotCreatedEvent event) {
        snapshots.put(event.snapshotId(), snapshots.get(event.snapshotId()).with(Status.CREATED, null));
    }

    @EventSourcingHandler
    void on(SnapshotAbandonedEvent event) {
        snapshots.remove(event.snapshotId());
    }

    @EventSourcingHandler
    void on(SnapshotDeletionRequestedEvent event) {
        snapshots.put(event.snapshotId(), snapshots.get(event.snapshotId()).with(Status.DELETING, event.requestedBy()));
    }

    @EventSourcingHandler
    void on(SnapshotDeletedEvent event) {
        snapshots.remove(event.snapshotId());
    }
}
