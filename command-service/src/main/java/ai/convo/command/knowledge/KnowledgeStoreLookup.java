package ai.convo.command.knowledge;

import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.command.web.Absent;
import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which knowledge stores exist, and whose they are, for commands on sources. Kept in the same transaction as the
 * store's events; a deleted project takes its stores with it.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class KnowledgeStoreLookup {

    public record Store(String storeId, String projectId, String organisationId) {
    }

    private final JdbcTemplate jdbc;

    public KnowledgeStoreLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The store, or a 404 when it does not exist or belongs to another organisation. The row is read FOR SHARE:
     * a source written while its store is being deleted waits for that deletion and then finds no store.
     */
    public Store requireVisible(String storeId, Actor actor) {
        List<Store> found = jdbc.query("SELECT store_id, project_id, organisation_id FROM cmd_knowledge_store_lookup "
                        + "WHERE store_id = ? FOR SHARE",
                (row, n) -> new Store(row.getString(1), row.getString(2), row.getString(3)), storeId);
        if (found.isEmpty() || !found.get(0).organisationId().equals(actor.organisationId())) {
            throw Absent.of(KnowledgeStoreId.class, storeId);
        }
        return found.get(0);
    }

    @EventHandler
    void on(KnowledgeStoreCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_knowledge_store_lookup (store_id, project_id, organisation_id) VALUES (?, ?, ?)",
                event.storeId(), event.projectId(), event.organisationId());
    }

    @EventHandler
    void on(KnowledgeStoreDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_knowledge_store_lookup WHERE store_id = ?", event.storeId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_knowledge_store_lookup WHERE project_id = ?", event.projectId());
    }
}
