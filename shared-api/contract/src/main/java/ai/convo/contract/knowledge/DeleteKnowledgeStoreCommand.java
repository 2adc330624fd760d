package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Deletes a store; its sources go with it (they answer 404 from then on). */
public record DeleteKnowledgeStoreCommand(
        @TargetAggregateIdentifier KnowledgeStoreId storeId,
        Actor actor,
        long at) {
}
