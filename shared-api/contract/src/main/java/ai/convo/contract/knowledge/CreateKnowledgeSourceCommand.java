package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import java.util.List;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a Knowledge Source in a store. Each source is its own aggregate. */
public record CreateKnowledgeSourceCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        KnowledgeStoreId storeId,
        Actor actor,
        String referenceId,
        String name,
        String description,
        SourceType type,
        List<String> tags,
        Map<String, Object> data,
        long at) {
}
