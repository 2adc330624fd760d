package ai.convo.query.snapshot;

import ai.convo.contract.snapshot.SnapshotCreatedEvent;
import ai.convo.contract.snapshot.SnapshotDeletedEvent;
import ai.convo.contract.snapshot.SnapshotResource;
import ai.convo.contract.snapshot.SnapshotResourcesListedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The snapshot read model; plain code that a test can feed events. A snapshot appears once its content is stored
 * (SnapshotCreatedEvent) and is gone once its deletion task is done; pending and failed ones are never shown.
 * All of a project's snapshot events are one aggregate's (the project's registry), so they arrive in order.
 */
@Component
@ProcessingGroup(SnapshotProjection.GROUP)
public class SnapshotProjection {

    public static final String GROUP = "snapshots";

    private final BatchingJdbcTemplate jdbc;

    public SnapshotProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(SnapshotCreatedEvent event) {
        jdbc.write("INSERT INTO snapshot_view (id, project_id, organisation_id, name, description, hash, created_at, "
                        + "created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING", event.snapshotId(),
                event.projectId(), event.organisationId(), event.name(), event.description(), event.hash(),
                event.createdAt(), event.createdBy());
    }

    /** The snapshot's resources, dated and signed like the snapshot (its row comes first: same aggregate). */
    @EventHandler
    public void on(SnapshotResourcesListedEvent event) {
        for (SnapshotResource resource : event.resources()) {
            jdbc.write("INSERT INTO snapshot_resource_view (snapshot_id, organisation_id, resource_type, id, reference_id, "
                            + "name, created_at, created_by) SELECT ?, ?, ?, ?, ?, ?, created_at, created_by "
                            + "FROM snapshot_view WHERE id = ? ON CONFLICT DO NOTHING", event.snapshotId(),
                    event.organisationId(), resource.type(), resource.id(), resource.referenceId(), resource.name(),
                    event.snapshotId());
        }
    }

    @EventHandler
    public void on(SnapshotDeletedEvent event) {
        jdbc.write("DELETE FROM snapshot_resource_view WHERE snapshot_id = ?", event.snapshotId());
        jdbc.write("DELETE FROM snapshot_view WHERE id = ?", event.snapshotId());
    }
}
