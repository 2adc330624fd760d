package ai.convo.command.knowledge.ingest;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.FailKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.IngestKnowledgeSourceCommand;
import ai.convo.contract.knowledge.KnowledgeChunkDraft;
import ai.convo.contract.knowledge.KnowledgeChunkId;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.SourceType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The processKnowledgeSourceFile task: an uploaded file (staged in cmd_knowledge_upload) to text ({@link DocumentText},
 * bounded), to chunks ({@link Chunking}), to the source's chunk events and {@code ready}, written as the uploader's in
 * one decision. Any refusal (unreadable, encrypted, zip bomb, too large, no text, chunk too long) ends the source
 * {@code failure} with the reason in {@code metaData.failReason} and the task {@code error} with the same reason; a
 * cancel ends the source {@code failure} too, so no source stays {@code ingesting} for ever. Steps: extract, chunk.
 */
@Component
public class ProcessKnowledgeSourceFileWork implements TaskWork {

    public static final String TYPE = "processKnowledgeSourceFile";

    private final DocumentText documents;
    private final Commands commands;
    private final JdbcTemplate jdbc;

    ProcessKnowledgeSourceFileWork(DocumentText documents, Commands commands, JdbcTemplate jdbc) {
        this.documents = documents;
        this.commands = commands;
        this.jdbc = jdbc;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String taskId = context.taskId().value();
        String sourceId = String.valueOf(context.parameters().get("sourceId"));
        String user = context.actor().userId();
        context.totalSteps(2);
        try {
            List<byte[]> staged = jdbc.queryForList("SELECT content FROM cmd_knowledge_upload WHERE task_id = ? "
                    + "AND content IS NOT NULL", byte[].class, taskId);
            if (staged.isEmpty()) {
                throw new DocumentText.Refused("The uploaded file is no longer there; upload it again.");
            }
            byte[] content = staged.get(0);
            DocumentText.Extracted extracted = documents.extract(content);
            context.stepDone(1);
            List<Chunking.Draft> drafts = extracted.type() == SourceType.CTXT
                    ? Chunking.ctxt(new String(content, StandardCharsets.UTF_8))
                    : Chunking.prose(extracted.text(), Locale.ROOT);
            List<KnowledgeChunkDraft> chunks = drafts.stream().map(draft -> new KnowledgeChunkDraft(
                    KnowledgeChunkId.generate().value(), UUID.randomUUID().toString(), draft.text(), draft.data()))
                    .toList();
            if (chunks.isEmpty()) {
                throw new DocumentText.Refused("No text found in the file.");
            }
            context.stepDone(2);
            commands.sendTogetherAs(user, List.of(new IngestKnowledgeSourceCommand(KnowledgeSourceId.of(sourceId),
                    context.actor(), chunks, Clock.nowSeconds())), List.of("ingest"));
        } catch (DocumentText.Refused | Chunking.Refused refused) {
            fail(user, sourceId, refused.getMessage());
            throw new TaskFailedException(refused.getMessage(), refused);
        } catch (TaskCancelledException cancelled) {
            fail(user, sourceId, "The ingestion was cancelled; upload the file again.");
            throw cancelled;
        } catch (DomainException gone) {
            throw new TaskFailedException("The source was deleted while its file was being ingested.", gone);
        } catch (RuntimeException unexpected) {
            fail(user, sourceId, "The file could not be ingested (an error of this server); upload it again.");
            throw unexpected;
        } finally {
            jdbc.update("UPDATE cmd_knowledge_upload SET content = NULL WHERE task_id = ?", taskId);
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
