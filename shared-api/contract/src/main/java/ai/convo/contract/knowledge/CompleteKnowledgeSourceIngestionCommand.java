package ai.convo.contract.knowledge;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Sent by the system's ingestion step, never by a client: ends a source's {@code ingesting} status.
 * Idempotent: a source that is no longer ingesting ignores it, so a replayed or retried step changes nothing.
 */
public record CompleteKnowledgeSourceIngestionCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        long at) {
}
