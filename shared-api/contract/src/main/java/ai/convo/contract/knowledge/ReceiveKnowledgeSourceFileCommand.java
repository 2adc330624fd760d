package ai.convo.contract.knowledge;

import ai.convo.contract.common.Actor;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Creates the source of an uploaded file (uploadKnowledgeSourceFile): {@code ingesting} whatever its type (CTXT
 * too), with no chunks, until its ingestion task ends. {@code type} was detected from the file's content.
 */
public record ReceiveKnowledgeSourceFileCommand(
        @TargetAggregateIdentifier KnowledgeSourceId sourceId,
        KnowledgeStoreId storeId,
        Actor actor,
        String referenceId,
        String name,
        SourceType type,
        List<String> tags,
        long at) {
}
