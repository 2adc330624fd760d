package ai.convo.command.knowledge.ingest;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.FailKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.IngestKnowledgeSourceCommand;
import ai.convo.contract.knowledge.KnowledgeChunkDraft;
import ai.convo.contract.knowledge.KnowledgeChunkId;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.SourceType;
import ai.convo.http.outbound.GuardedFetch;
import ai.convo.http.outbound.OutboundGuard;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * What an upload and a URL source share once their bytes are in hand: text ({@link DocumentText}, bounded), chunks
 * ({@link Chunking}), the source's chunk events and {@code ready} as the task's user in one decision. Any refusal
 * (unreadable, encrypted, zip bomb, too large, no text, chunk too long, not fetched) ends the source {@code failure}
 * with the reason in {@code metaData.failReason} and the task {@code error} with the same reason; a cancel ends the
 * source {@code failure} too, so no source stays {@code ingesting} for ever.
 */
@Component
class SourceIngestion {

    /** The document's bytes; may refuse ({@link DocumentText.Refused}, {@link GuardedFetch.Failed}, ...). */
    @FunctionalInterface
    interface Content {
        byte[] get();
    }

    private final DocumentText documents;
    private final Commands commands;

    SourceIngestion(DocumentText documents, Commands commands) {
        this.documents = documents;
        this.commands = commands;
    }

    /**
     * Runs the steps: [fetch,] extract, chunk. {@code fetching} adds the first step; {@code again} is what the user
     * does to try once more ("upload the file again").
     */
    void run(TaskContext context, String sourceId, boolean fetching, Content content, String again) {
        String user = context.actor().userId();
        int step = 0;
        context.totalSteps(fetching ? 3 : 2);
        try {
            byte[] bytes = content.get();
            if (fetching) {
                context.stepDone(++step);
            }
            DocumentText.Extracted extracted = documents.extract(bytes, context.actor().organisationId());
            context.stepDone(++step);
            List<Chunking.Draft> drafts = extracted.type() == SourceType.CTXT
                    ? Chunking.ctxt(new String(bytes, StandardCharsets.UTF_8))
                    : Chunking.prose(extracted.text(), Locale.ROOT);
            List<KnowledgeChunkDraft> chunks = drafts.stream().map(draft -> new KnowledgeChunkDraft(
                    KnowledgeChunkId.generate().value(), UUID.randomUUID().toString(), draft.text(), draft.data()))
                    .toList();
            if (chunks.isEmpty()) {
                throw new DocumentText.Refused("No text found in the " + (fetching ? "document" : "file") + ".");
            }
            context.stepDone(++step);
            commands.sendTogetherAs(user, List.of(new IngestKnowledgeSourceCommand(KnowledgeSourceId.of(sourceId),
                    context.actor(), chunks, Clock.nowSeconds())), List.of("ingest"));
        } catch (DocumentText.Refused | Chunking.Refused | GuardedFetch.Failed | OutboundGuard.Refused refused) {
            fail(user, sourceId, refused.getMessage());
            throw new TaskFailedException(refused.getMessage(), refused);
        } catch (TaskCancelledException cancelled) {
            fail(user, sourceId, "The ingestion was cancelled; " + again + ".");
            throw cancelled;
        } catch (DomainException gone) {
            throw new TaskFailedException("The source was deleted while it was being ingested.", gone);
        } catch (RuntimeException unexpected) {
            fail(user, sourceId, "The source could not be ingested (an error of this server); " + again + ".");
            throw unexpected;
        }
    }

    private void fail(String user, String sourceId, String reason) {
        try {
            commands.sendTogetherAs(user, List.of(new FailKnowledgeSourceIngestionCommand(KnowledgeSourceId.of(sourceId),
                    reason, Clock.nowSeconds())), List.of("fail"));
        } catch (DomainException gone) {
            // deleted meanwhile: nothing left to mark
        }
    }
}
