package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The official client's updateKnowledgeChunk; the handler answers the chunk as it is afterwards. */
public record UpdateKnowledgeChunkCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        KnowledgeStoreId storeId,
        KnowledgeChunkId chunkId,
        Actor actor,
        KnowledgeChunkPatch patch,
        long at) {
}
