package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteKnowledgeChunkCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        KnowledgeStoreId storeId,
        KnowledgeChunkId chunkId,
        Actor actor,
        long at) {
}
