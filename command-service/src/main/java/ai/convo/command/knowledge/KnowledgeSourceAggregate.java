package ai.convo.command.knowledge;

import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.command.web.Absent;
import static ai.convo.command.knowledge.KnowledgeStoreAggregate.require;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.CompleteKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.CreateKnowledgeSourceCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeSourceCommand;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourcePatch;
import ai.convo.contract.knowledge.KnowledgeSourceRecord;
import ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent;
import ai.convo.contract.knowledge.SourceStatus;
import ai.convo.contract.knowledge.SourceType;
import ai.convo.contract.knowledge.UpdateKnowledgeSourceCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A Knowledge Source of a store, and its status machine:
 * <pre>
 *   create (manual, ctxt)        -> ready
 *   create (documents, url, images) -> ingesting --system: content found--> ready
 *                                              \--system: nothing to ingest--> failure
 *   client PATCH: ready <-> disabled; nothing else. An ingesting source cannot be edited at all;
 *   a failed one keeps status failure (delete it and create it again).
 * </pre>
 * Every command checks the store (it must exist, be the caller's and be the one in the path): a source of a
 * deleted store, of another store or of another organisation answers as a missing one.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class KnowledgeSourceAggregate {

    @AggregateIdentifier
    private String sourceId;
    private String storeId;
    private String projectId;
    private String organisationId;
    private SourceStatus status;
    private KnowledgeSourceRecord source;

    protected KnowledgeSourceAggregate() {
        // for Axon
    }

    @CommandHandler
    public KnowledgeSourceAggregate(CreateKnowledgeSourceCommand command, KnowledgeStoreLookup stores) {
        KnowledgeStoreLookup.Store store = stores.requireVisible(command.storeId().value(), command.actor());
        require("name", KnowledgeRules.nameProblem(command.name()));
        require("description", KnowledgeRules.descriptionProblem(command.description()));
        if (command.type() == null) {
            throw DomainException.invalid("type", "type is required: one of " + String.join(", ", SourceType.codes()) + ".");
        }
        require("metaData.tags", KnowledgeRules.tagsProblem(command.tags()));
        require("data", KnowledgeRules.dataProblem(command.data()));
        Actor actor = command.actor();
        apply(new KnowledgeSourceCreatedEvent(command.sourceId().value(), store.storeId(), store.projectId(),
                store.organisationId(), command.referenceId(), command.name(), command.description(),
                command.type().code(), command.type().initialStatus().code(),
                command.type().initialChunkCount(command.data()), List.copyOf(command.tags()),
                new LinkedHashMap<>(command.data()), actor.userId(), command.at()));
    }

    @CommandHandler
    public KnowledgeSourceRecord handle(UpdateKnowledgeSourceCommand command, KnowledgeStoreLookup stores) {
        requireVisible(command.storeId().value(), command.actor(), stores);
        if (status == SourceStatus.INGESTING) {
            throw DomainException.conflict("Knowledge source " + sourceId + " is being ingested and cannot be edited "
                    + "until ingestion ends (status ready or failure); retry later.",
                    Map.of("status", status.code(), "allowed", List.of()));
        }
        KnowledgeSourcePatch patch = command.patch();
        List<String> changed = new ArrayList<>();

        String name = source.name();
        if (patch.name() != null && !patch.name().equals(name)) {
            require("name", KnowledgeRules.nameProblem(patch.name()));
            name = patch.name();
            changed.add("name");
        }
        String description = source.description();
        if (patch.description() != null && !patch.description().equals(description)) {
            require("description", KnowledgeRules.descriptionProblem(patch.description()));
            description = patch.description();
            changed.add("description");
        }
        SourceStatus newStatus = status;
        if (patch.status() != null && patch.status() != status) {
            requireClientMove(patch.status());
            newStatus = patch.status();
            changed.add("status");
        }
        List<String> tags = source.tags();
        if (patch.tags() != null && !patch.tags().equals(tags)) {
            require("metaData.tags", KnowledgeRules.tagsProblem(patch.tags()));
            tags = List.copyOf(patch.tags());
            changed.add("metaData.tags");
        }
        Map<String, Object> data = source.data();
        int chunkCount = source.chunkCount();
        if (patch.data() != null && !patch.data().equals(data)) {
            require("data", KnowledgeRules.dataProblem(patch.data()));
            data = new LinkedHashMap<>(patch.data());
            // The data is the source's content: a usable source is re-chunked at once, a failed one has no chunks.
            chunkCount = status == SourceStatus.FAILURE ? 0 : KnowledgeRules.chunkCount(data);
            changed.add("data");
        }
        if (changed.isEmpty()) {
            return source;
        }
        apply(new KnowledgeSourceUpdatedEvent(sourceId, storeId, projectId, organisationId, changed, name, description,
                newStatus.code(), chunkCount, tags, data, command.actor().userId(), command.at()));
        return source;
    }

    /** The system's ingestion step. Ignored unless the source is still ingesting, so retries change nothing. */
    @CommandHandler
    public void handle(CompleteKnowledgeSourceIngestionCommand command) {
        if (status != SourceStatus.INGESTING) {
            return;
        }
        int chunks = KnowledgeRules.chunkCount(source.data());
        if (chunks == 0) {
            apply(new KnowledgeSourceIngestionFailedEvent(sourceId, storeId, projectId, organisationId,
                    "The source has no content to ingest: its data holds no non-blank value.", command.at()));
        } else {
            apply(new KnowledgeSourceIngestedEvent(sourceId, storeId, projectId, organisationId, chunks, command.at()));
        }
    }

    @CommandHandler
    public void handle(DeleteKnowledgeSourceCommand command, KnowledgeStoreLookup stores) {
        requireVisible(command.storeId().value(), command.actor(), stores);
        apply(new KnowledgeSourceDeletedEvent(sourceId, storeId, projectId, organisationId, command.actor().userId(),
                command.at()));
    }

    // ---- guard clauses

    /** Another organisation's source, one under another store, or one whose store is gone answers as missing. */
    private void requireVisible(String pathStoreId, Actor actor, KnowledgeStoreLookup stores) {
        if (!organisationId.equals(actor.organisationId()) || !storeId.equals(pathStoreId)) {
            throw notFound();
        }
        try {
            stores.requireVisible(storeId, actor);
        } catch (DomainException storeGone) {
            throw notFound();
        }
    }

    private void requireClientMove(SourceStatus target) {
        List<SourceStatus> allowed = status.clientTargets();
        if (allowed.contains(target)) {
            return;
        }
        List<String> allowedCodes = allowed.stream().map(SourceStatus::code).toList();
        String why = target == SourceStatus.INGESTING || target == SourceStatus.FAILURE
                ? "'" + target.code() + "' is set by the system only"
                : "a " + status.code() + " source cannot be moved by a client";
        throw DomainException.conflict("Knowledge source " + sourceId + " cannot move from status '" + status.code()
                + "' to '" + target.code() + "': " + why + ". Allowed from '" + status.code() + "': "
                + (allowedCodes.isEmpty() ? "none (delete the source and create it again)" : String.join(", ", allowedCodes))
                + ".", Map.of("status", status.code(), "requested", target.code(), "allowed", allowedCodes));
    }

    private DomainException notFound() {
        return Absent.of(KnowledgeSourceId.class, sourceId);
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(KnowledgeSourceCreatedEvent event) {
        sourceId = event.sourceId();
        storeId = event.storeId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        status = SourceStatus.fromCode(event.status()).orElseThrow();
        source = new KnowledgeSourceRecord(event.sourceId(), event.referenceId(), event.name(), event.description(),
                event.type(), event.status(), event.chunkCount(), event.tags(), event.data(), event.storeId(),
                event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy());
    }

    @EventSourcingHandler
    void on(KnowledgeSourceUpdatedEvent event) {
        status = SourceStatus.fromCode(event.status()).orElseThrow();
        source = new KnowledgeSourceRecord(sourceId, source.referenceId(), event.name(), event.description(),
                source.type(), event.status(), event.chunkCount(), event.tags(), event.data(), storeId,
                source.createdAt(), event.changedAt(), source.createdBy(), event.changedBy());
    }

    @EventSourcingHandler
    void on(KnowledgeSourceIngestedEvent event) {
        status = SourceStatus.READY;
        source = new KnowledgeSourceRecord(sourceId, source.referenceId(), source.name(), source.description(),
                source.type(), status.code(), event.chunkCount(), source.tags(), source.data(), storeId,
                source.createdAt(), event.at(), source.createdBy(), source.lastChangedBy());
    }

    @EventSourcingHandler
    void on(KnowledgeSourceIngestionFailedEvent event) {
        status = SourceStatus.FAILURE;
        source = new KnowledgeSourceRecord(sourceId, source.referenceId(), source.name(), source.description(),
                source.type(), status.code(), 0, source.tags(), source.data(), storeId,
                source.createdAt(), event.at(), source.createdBy(), source.lastChangedBy());
    }

    @EventSourcingHandler
    void on(KnowledgeSourceDeletedEvent event) {
        markDeleted();
    }
}
