package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.ProjectId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a Knowledge Store in a project. Each store is its own aggregate. */
public record CreateKnowledgeStoreCommand(
        @TargetAggregateIdentifier KnowledgeStoreId storeId,
        ProjectId projectId,
        Actor actor,
        String referenceId,
        String name,
        String description,
        NluLanguage language,
        long at) {
}
