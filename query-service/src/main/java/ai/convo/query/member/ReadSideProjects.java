package ai.convo.query.member;

import ai.convo.http.access.ProjectOf;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The project of a resource from the views this service reads it from (on the primary: a resource not projected
 * yet is one the read would not find either).
 */
@Component
class ReadSideProjects implements ProjectOf {

    private static final Map<String, String> TABLES = Map.of("flowId", "flow_view", "localeId", "locale_view",
            "functionId", "function_view", "knowledgeStoreId", "knowledge_store_view", "snapshotId", "snapshot_view",
            "taskId", "task_view");

    private final DatabaseClient db;

    ReadSideProjects(DatabaseClient db) {
        this.db = db;
    }

    @Override
    public Mono<String> projectOf(String variable, String id) {
        String table = TABLES.get(variable);
        if (table == null) {
            return Mono.error(new IllegalStateException("No project look-up for path variable " + variable));
        }
        return db.sql("SELECT project_id FROM " + table + " WHERE id = :id").bind("id", id)
                .map(row -> row.get("project_id", String.class)).one();
    }
}
