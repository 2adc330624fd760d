package ai.convo.contract.knowledge;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by an ingestion task: the source's content could not be ingested, for {@code reason}. Ignored unless ingesting. */
public record FailKnowledgeSourceIngestionCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        String reason,
        long at) {
}
