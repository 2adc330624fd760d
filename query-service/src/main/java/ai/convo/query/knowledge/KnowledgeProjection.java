package ai.convo.query.knowledge;

import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreUpdatedEvent;
import ai.convo.contract.knowledge.SourceStatus;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.http.media.Renderer;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The knowledge read model; plain code that a test can feed events. A store lives only in a live project and a
 * source only in a live store, so deleting a project or a store removes everything under it for good.
 */
@Component
@ProcessingGroup(KnowledgeProjection.GROUP)
public class KnowledgeProjection {

    public static final String GROUP = "knowledge";

    private final BatchingJdbcTemplate jdbc;

    public KnowledgeProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(ProjectCreatedEvent event) {
        jdbc.write("INSERT INTO knowledge_project (project_id) VALUES (?) ON CONFLICT (project_id) DO NOTHING",
                event.projectId());
    }

    /** Only into a live project: a store created while its project was being deleted must not reappear. */
    @EventHandler
    public void on(KnowledgeStoreCreatedEvent event) {
        jdbc.write("INSERT INTO knowledge_store_view (id, project_id, organisation_id, reference_id, name, description, "
                        + "language, created_at, last_changed, created_by, last_changed_by) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM knowledge_project WHERE project_id = ?) "
                        + "ON CONFLICT (id) DO NOTHING", event.storeId(), event.projectId(), event.organisationId(),
                event.referenceId(), event.name(), event.description(), event.language(), event.createdAt(),
                event.createdAt(), event.createdBy(), event.createdBy(), event.projectId());
    }

    @EventHandler
    public void on(KnowledgeStoreUpdatedEvent event) {
        jdbc.write("UPDATE knowledge_store_view SET name = ?, description = ?, last_changed = ?, last_changed_by = ? "
                + "WHERE id = ?", event.name(), event.description(), event.changedAt(), event.changedBy(), event.storeId());
    }

    @EventHandler
    public void on(KnowledgeStoreDeletedEvent event) {
        jdbc.write("DELETE FROM knowledge_chunk_view WHERE store_id = ?", event.storeId());
        jdbc.write("DELETE FROM knowledge_source_view WHERE store_id = ?", event.storeId());
        jdbc.write("DELETE FROM knowledge_store_view WHERE id = ?", event.storeId());
    }

    /** Only into a live store, for the same reason as a store's creation. */
    @EventHandler
    public void on(KnowledgeSourceCreatedEvent event) {
        jdbc.write("INSERT INTO knowledge_source_view (id, store_id, project_id, organisation_id, reference_id, name, "
                        + "description, source_type, status, chunk_count, tags, data, created_at, last_changed, "
                        + "created_by, last_changed_by) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM knowledge_store_view WHERE id = ?) "
                        + "ON CONFLICT (id) DO NOTHING", event.sourceId(), event.storeId(), event.projectId(),
                event.organisationId(), event.referenceId(), event.name(), event.description(), event.type(),
                event.status(), event.chunkCount(), json(event.tags()), json(event.data()), event.createdAt(),
                event.createdAt(), event.createdBy(), event.createdBy(), event.storeId());
    }

    @EventHandler
    public void on(KnowledgeSourceUpdatedEvent event) {
        jdbc.write("UPDATE knowledge_source_view SET name = ?, description = ?, status = ?, chunk_count = ?, tags = ?, "
                        + "data = ?, last_changed = ?, last_changed_by = ? WHERE id = ?", event.name(), event.description(),
                event.status(), event.chunkCount(), json(event.tags()), json(event.data()), event.changedAt(),
                event.changedBy(), event.sourceId());
    }

    @EventHandler
    public void on(KnowledgeSourceIngestedEvent event) {
        jdbc.write("UPDATE knowledge_source_view SET status = ?, chunk_count = ?, last_changed = ? WHERE id = ?",
                SourceStatus.READY.code(), event.chunkCount(), event.at(), event.sourceId());
    }

    @EventHandler
    public void on(KnowledgeSourceIngestionFailedEvent event) {
        jdbc.write("UPDATE knowledge_source_view SET status = ?, chunk_count = 0, last_changed = ?, fail_reason = ? "
                + "WHERE id = ?", SourceStatus.FAILURE.code(), event.at(), event.reason(), event.sourceId());
    }

    @EventHandler
    public void on(KnowledgeSourceDeletedEvent event) {
        jdbc.write("DELETE FROM knowledge_chunk_view WHERE source_id = ?", event.sourceId());
        jdbc.write("DELETE FROM knowledge_source_view WHERE id = ?", event.sourceId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        jdbc.write("DELETE FROM knowledge_chunk_view WHERE project_id = ?", event.projectId());
        jdbc.write("DELETE FROM knowledge_source_view WHERE project_id = ?", event.projectId());
        jdbc.write("DELETE FROM knowledge_store_view WHERE project_id = ?", event.projectId());
        jdbc.write("DELETE FROM knowledge_project WHERE project_id = ?", event.projectId());
    }

    /** Only into a live source; the source's chunk count is the one the event carries. */
    @EventHandler
    public void on(KnowledgeChunkCreatedEvent event) {
        jdbc.write("INSERT INTO knowledge_chunk_view (id, source_id, store_id, project_id, organisation_id, reference_id, "
                        + "chunk_order, text, disabled, data, created_at, last_changed, created_by, last_changed_by) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM knowledge_source_view WHERE id = ?) "
                        + "ON CONFLICT (id) DO NOTHING", event.chunkId(), event.sourceId(), event.storeId(),
                event.projectId(), event.organisationId(), event.referenceId(), event.order(), event.text(),
                event.disabled(), json(event.data()), event.createdAt(), event.createdAt(), event.createdBy(),
                event.createdBy(), event.sourceId());
        jdbc.write("UPDATE knowledge_source_view SET chunk_count = ? WHERE id = ?", event.sourceChunkCount(),
                event.sourceId());
    }

    @EventHandler
    public void on(KnowledgeChunkUpdatedEvent event) {
        jdbc.write("UPDATE knowledge_chunk_view SET chunk_order = ?, text = ?, disabled = ?, data = ?, last_changed = ?, "
                        + "last_changed_by = ? WHERE id = ?", event.order(), event.text(), event.disabled(),
                json(event.data()), event.changedAt(), event.changedBy(), event.chunkId());
    }

    @EventHandler
    public void on(KnowledgeChunkDeletedEvent event) {
        jdbc.write("DELETE FROM knowledge_chunk_view WHERE id = ?", event.chunkId());
        jdbc.write("UPDATE knowledge_source_view SET chunk_count = ? WHERE id = ?", event.sourceChunkCount(),
                event.sourceId());
    }

    private static String json(Object value) {
        return Renderer.JSON.writeValueAsString(value);
    }
}
