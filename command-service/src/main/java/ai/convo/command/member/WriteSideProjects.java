package ai.convo.command.member;

import ai.convo.http.access.ProjectOf;
import ai.convo.http.security.IdentityStore;
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
    private static final Map<String, String> STATEMENTS = ai.convo.persistence.Members.statements(BY_VARIABLE);

    private final DatabaseClient db;

    WriteSideProjects(DatabaseClient db) {
        this.db = db;
    }

    @Override
    public Mono<IdentityStore.Membership> membership(String userId, String variable, String id) {
        return ai.convo.persistence.Members.read(db, STATEMENTS, userId, variable, id);
    }
}
