package ai.convo.command.knowledge;

import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.command.web.Absent;
import static ai.convo.command.knowledge.KnowledgeStoreAggregate.require;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.CompleteKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.CreateKnowledgeChunkCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeChunkCommand;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkId;
import ai.convo.contract.knowledge.KnowledgeChunkPatch;
import ai.convo.contract.knowledge.KnowledgeChunkRecord;
import ai.convo.contract.knowledge.KnowledgeChunkUpdatedEvent;
import ai.convo.contract.knowledge.UpdateKnowledgeChunkCommand;
import ai.convo.contract.knowledge.FailKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.IngestKnowledgeSourceCommand;
import ai.convo.contract.knowledge.KnowledgeChunkDraft;
import ai.convo.contract.knowledge.ReceiveKnowledgeSourceFileCommand;
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
 * Its chunks are entities of this aggregate, so the vendor's limit of chunks per source holds whatever writes them
 * concurrently, and an ingestion's chunks and its outcome are one decision. Chunks are written while the source is
 * {@code ready} or {@code disabled}; once a source has chunks, its {@code chunkCount} is their number.
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
    /** Its chunks by id, in creation order. */
    private Map<String, KnowledgeChunkRecord> chunks = new LinkedHashMap<>();

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

    /** An uploaded file's source: ingesting until its task ends, whatever its type. */
    @CommandHandler
    public KnowledgeSourceAggregate(ReceiveKnowledgeSourceFileCommand command, KnowledgeStoreLookup stores) {
        KnowledgeStoreLookup.Store store = stores.requireVisible(command.storeId().value(), command.actor());
        require("name", KnowledgeRules.nameProblem(command.name()));
        require("metaData.tags", KnowledgeRules.tagsProblem(command.tags()));
        apply(new KnowledgeSourceCreatedEvent(command.sourceId().value(), store.storeId(), store.projectId(),
                store.organisationId(), command.referenceId(), command.name(), "", command.type().code(),
                SourceStatus.INGESTING.code(), 0, List.copyOf(command.tags()), new LinkedHashMap<>(),
                command.actor().userId(), command.at()));
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
            chunkCount = status == SourceStatus.FAILURE ? 0
                    : chunks.isEmpty() ? KnowledgeRules.chunkCount(data) : chunks.size();
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

    /**
     * An ingestion task's chunks: each a chunk event of the uploader, then {@code ready} with their count, in one
     * decision. Ignored unless ingesting, so a repeated task run changes nothing.
     */
    @CommandHandler
    public void handle(IngestKnowledgeSourceCommand command) {
        if (status != SourceStatus.INGESTING) {
            return;
        }
        if (command.chunks().isEmpty() || command.chunks().size() > KnowledgeRules.MAX_CHUNKS_PER_SOURCE) {
            apply(new KnowledgeSourceIngestionFailedEvent(sourceId, storeId, projectId, organisationId,
                    command.chunks().isEmpty() ? "No text found." : "The content makes " + command.chunks().size()
                    + " chunks; a source may have at most " + KnowledgeRules.MAX_CHUNKS_PER_SOURCE + ".", command.at()));
            return;
        }
        int order = 0;
        for (KnowledgeChunkDraft draft : command.chunks()) {
            require("text", KnowledgeRules.chunkTextProblem(draft.text()));
            require("data", KnowledgeRules.dataProblem(draft.data()));
            apply(new KnowledgeChunkCreatedEvent(draft.chunkId(), sourceId, storeId, projectId, organisationId,
                    draft.referenceId(), order++, draft.text(), false, new LinkedHashMap<>(draft.data()),
                    chunks.size() + 1, command.actor().userId(), command.at()));
        }
        apply(new KnowledgeSourceIngestedEvent(sourceId, storeId, projectId, organisationId, chunks.size(),
                command.at()));
    }

    @CommandHandler
    public void handle(FailKnowledgeSourceIngestionCommand command) {
        if (status != SourceStatus.INGESTING) {
            return;
        }
        apply(new KnowledgeSourceIngestionFailedEvent(sourceId, storeId, projectId, organisationId, command.reason(),
                command.at()));
    }

    @CommandHandler
    public void handle(DeleteKnowledgeSourceCommand command, KnowledgeStoreLookup stores) {
        requireVisible(command.storeId().value(), command.actor(), stores);
        apply(new KnowledgeSourceDeletedEvent(sourceId, storeId, projectId, organisationId, command.actor().userId(),
                command.at()));
    }

    // ---- chunks

    /** Answers the new chunk. A null order appends it after the source's last chunk. */
    @CommandHandler
    public KnowledgeChunkRecord handle(CreateKnowledgeChunkCommand command, KnowledgeStoreLookup stores) {
        requireVisible(command.storeId().value(), command.actor(), stores);
        requireChunksWritable();
        require("text", KnowledgeRules.chunkTextProblem(command.text()));
        require("order", KnowledgeRules.chunkOrderProblem(command.order()));
        require("data", KnowledgeRules.dataProblem(command.data()));
        if (chunks.size() >= KnowledgeRules.MAX_CHUNKS_PER_SOURCE) {
            throw DomainException.conflict("Knowledge source " + sourceId + " already has "
                    + KnowledgeRules.MAX_CHUNKS_PER_SOURCE + " chunks, the most a source may have; delete one first "
                    + "or add the text to another source.", Map.of("chunkCount", chunks.size(),
                    "limit", KnowledgeRules.MAX_CHUNKS_PER_SOURCE));
        }
        int order = command.order() != null ? command.order() : nextOrder();
        String chunkId = command.chunkId().value();
        apply(new KnowledgeChunkCreatedEvent(chunkId, sourceId, storeId, projectId, organisationId,
                command.referenceId(), order, command.text(), false, new LinkedHashMap<>(command.data()),
                chunks.size() + 1, command.actor().userId(), command.at()));
        return chunks.get(chunkId);
    }

    /** Answers the chunk as it is afterwards; a PATCH that changes nothing stores nothing. */
    @CommandHandler
    public KnowledgeChunkRecord handle(UpdateKnowledgeChunkCommand command, KnowledgeStoreLookup stores) {
        requireVisible(command.storeId().value(), command.actor(), stores);
        KnowledgeChunkRecord chunk = requireChunk(command.chunkId());
        requireChunksWritable();
        KnowledgeChunkPatch patch = command.patch();
        List<String> changed = new ArrayList<>();
        String text = chunk.text();
        if (patch.text() != null && !patch.text().equals(text)) {
            require("text", KnowledgeRules.chunkTextProblem(patch.text()));
            text = patch.text();
            changed.add("text");
        }
        int order = chunk.order();
        if (patch.order() != null && patch.order() != order) {
            require("order", KnowledgeRules.chunkOrderProblem(patch.order()));
            order = patch.order();
            changed.add("order");
        }
        Map<String, Object> data = chunk.data();
        if (patch.data() != null && !patch.data().equals(data)) {
            require("data", KnowledgeRules.dataProblem(patch.data()));
            data = new LinkedHashMap<>(patch.data());
            changed.add("data");
        }
        boolean disabled = chunk.disabled();
        if (patch.disabled() != null && patch.disabled() != disabled) {
            disabled = patch.disabled();
            changed.add("disabled");
        }
        if (changed.isEmpty()) {
            return chunk;
        }
        apply(new KnowledgeChunkUpdatedEvent(chunk.id(), sourceId, storeId, projectId, organisationId, changed, order,
                text, disabled, data, command.actor().userId(), command.at()));
        return chunks.get(chunk.id());
    }

    @CommandHandler
    public void handle(DeleteKnowledgeChunkCommand command, KnowledgeStoreLookup stores) {
        requireVisible(command.storeId().value(), command.actor(), stores);
        KnowledgeChunkRecord chunk = requireChunk(command.chunkId());
        requireChunksWritable();
        apply(new KnowledgeChunkDeletedEvent(chunk.id(), sourceId, storeId, projectId, organisationId,
                chunks.size() - 1, command.actor().userId(), command.at()));
    }

    private int nextOrder() {
        return chunks.values().stream().mapToInt(KnowledgeChunkRecord::order).max().orElse(-1) + 1;
    }

    // ---- guard clauses

    private KnowledgeChunkRecord requireChunk(KnowledgeChunkId chunkId) {
        KnowledgeChunkRecord chunk = chunks.get(chunkId.value());
        if (chunk == null) {
            throw Absent.of(KnowledgeChunkId.class, chunkId.value());
        }
        return chunk;
    }

    /** Chunks change only in a usable source: not while it is ingested, not after its ingestion failed. */
    private void requireChunksWritable() {
        if (status == SourceStatus.READY || status == SourceStatus.DISABLED) {
            return;
        }
        throw DomainException.conflict("Knowledge source " + sourceId + " is " + status.code() + ": its chunks can be "
                + "written while it is ready or disabled only" + (status == SourceStatus.INGESTING
                ? "; retry when its ingestion has ended." : "; delete the source and create it again."),
                Map.of("status", status.code(), "allowed", List.of(SourceStatus.READY.code(),
                        SourceStatus.DISABLED.code())));
    }

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
                source.createdAt(), event.changedAt(), source.createdBy(), event.changedBy(), source.failReason());
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
                source.createdAt(), event.at(), source.createdBy(), source.lastChangedBy(), event.reason());
    }

    @EventSourcingHandler
    void on(KnowledgeChunkCreatedEvent event) {
        chunks.put(event.chunkId(), new KnowledgeChunkRecord(event.chunkId(), event.referenceId(), event.order(),
                event.text(), event.disabled(), event.data(), storeId, sourceId, projectId, organisationId,
                event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy()));
        source = withChunkCount(event.sourceChunkCount());
    }

    @EventSourcingHandler
    void on(KnowledgeChunkUpdatedEvent event) {
        KnowledgeChunkRecord chunk = chunks.get(event.chunkId());
        chunks.put(event.chunkId(), new KnowledgeChunkRecord(chunk.id(), chunk.referenceId(), event.order(),
                event.text(), event.disabled(), event.data(), storeId, sourceId, projectId, organisationId,
                chunk.createdAt(), event.changedAt(), chunk.createdBy(), event.changedBy()));
    }

    @EventSourcingHandler
    void on(KnowledgeChunkDeletedEvent event) {
        chunks.remove(event.chunkId());
        source = withChunkCount(event.sourceChunkCount());
    }

    private KnowledgeSourceRecord withChunkCount(int count) {
        return new KnowledgeSourceRecord(sourceId, source.referenceId(), source.name(), source.description(),
                source.type(), source.status(), count, source.tags(), source.data(), storeId, source.createdAt(),
                source.lastChanged(), source.createdBy(), source.lastChangedBy());
    }

    @EventSourcingHandler
    void on(KnowledgeSourceDeletedEvent event) {
        markDeleted();
    }
}
