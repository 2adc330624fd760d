package ai.convo.command.knowledge.ingest;

import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The processKnowledgeSourceFile task: an uploaded file (staged in cmd_knowledge_upload) ingested by
 * {@link SourceIngestion}. Steps: extract, chunk. The staged bytes are dropped when the task ends, whatever its end.
 */
@Component
public class ProcessKnowledgeSourceFileWork implements TaskWork {

    public static final String TYPE = "processKnowledgeSourceFile";

    private final SourceIngestion ingestion;
    private final JdbcTemplate jdbc;

    ProcessKnowledgeSourceFileWork(SourceIngestion ingestion, JdbcTemplate jdbc) {
        this.ingestion = ingestion;
        this.jdbc = jdbc;
    }

    @Override
    public String type() {
        return TYPE;
    }

    /** Its organisation's other ingestions wait in the queue, not on a runner thread at the organisation's parse slot. */
    @Override
    public boolean onePerOrganisation() {
        return true;
    }

    @Override
    public void run(TaskContext context) {
        String taskId = context.taskId().value();
        String sourceId = String.valueOf(context.parameters().get("sourceId"));
        try {
            ingestion.run(context, sourceId, false, () -> {
                List<byte[]> staged = jdbc.queryForList("SELECT content FROM cmd_knowledge_upload WHERE task_id = ? "
                        + "AND content IS NOT NULL", byte[].class, taskId);
                if (staged.isEmpty()) {
                    throw new DocumentText.Refused("The uploaded file is no longer there; upload it again.");
                }
                return staged.get(0);
            }, "upload the file again");
        } finally {
            jdbc.update("UPDATE cmd_knowledge_upload SET content = NULL WHERE task_id = ?", taskId);
        }
    }
}
