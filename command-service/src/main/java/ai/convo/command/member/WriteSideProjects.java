package ai.convo.command.member;

import ai.convo.http.access.ProjectOf;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** The project of a resource from the write-side lookups, which commit with the events: the current state. */
@Component
class WriteSideProjects implements ProjectOf {

    private static final Map<String, String> BY_VARIABLE = Map.of(
            "flowId", "SELECT project_id FROM cmd_flow_lookup WHERE flow_id = :id",
            "localeId", "SELECT project_id FROM cmd_locale_lookup WHERE locale_id = :id",
            "functionId", "SELECT project_id FROM cmd_snapshot_function WHERE function_id = :id",
            "knowledgeStoreId", "SELECT project_id FROM cmd_knowledge_store_lookup WHERE store_id = :id",
            "snapshotId", "SELECT project_id FROM cmd_snapshot WHERE snapshot_id = :id",
            "taskId", "SELECT project_id FROM task_run WHERE task_id = :id");

    private final DatabaseClient db;

    WriteSideProjects(DatabaseClient db) {
        this.db = db;
    }

    @Override
    public Mono<String> projectOf(String variable, String id) {
        String sql = BY_VARIABLE.get(variable);
        if (sql == null) {
            return Mono.error(new IllegalStateException("No project look-up for path variable " + variable));
        }
        return db.sql(sql).bind("id", id).map(row -> row.get("project_id", String.class)).one();
    }
}
