package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The spec's source PATCH; the handler answers the full record it just wrote. */
public record UpdateKnowledgeSourceCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        KnowledgeStoreId storeId,
        Actor actor,
        KnowledgeSourcePatch patch,
        long at) {
}
