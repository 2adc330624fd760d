package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Adds a chunk to a source (the official client's createKnowledgeChunk). Chunks are entities of their source's
 * aggregate, so the per-source limit holds under concurrent writes. A null {@code order} appends the chunk.
 */
public record CreateKnowledgeChunkCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        KnowledgeStoreId storeId,
        KnowledgeChunkId chunkId,
        Actor actor,
        String referenceId,
        String text,
        Integer order,
        Map<String, Object> data,
        long at) {
}
