package ai.convo.query.member;

import ai.convo.http.access.ProjectOf;
import ai.convo.http.security.IdentityStore;
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

    private static final Map<String, String> STATEMENTS = ai.convo.persistence.Members.statements(
            TABLES.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                    e -> "SELECT project_id FROM " + e.getValue() + " WHERE id = :id")));

    @Override
    public Mono<IdentityStore.Membership> membership(String userId, String variable, String id) {
        return ai.convo.persistence.Members.read(db, STATEMENTS, userId, variable, id);
    }
}
