package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Sent by an ingestion task, never by a client: the chunks found in the source's content, all written as the
 * uploader's ({@code actor}) with the source's {@code ready} in one decision. Ignored unless the source is ingesting.
 */
public record IngestKnowledgeSourceCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        Actor actor,
        List<KnowledgeChunkDraft> chunks,
        long at) {
}
