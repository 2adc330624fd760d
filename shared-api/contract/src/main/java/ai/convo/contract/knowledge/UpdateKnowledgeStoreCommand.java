package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Renames a store or changes its description; answers the store as it is afterwards. */
public record UpdateKnowledgeStoreCommand(
        @TargetAggregateIdentifier KnowledgeStoreId storeId,
        Actor actor,
        KnowledgeStorePatch patch,
        long at) {
}
