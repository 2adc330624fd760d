package ai.convo.contract.snapshot;

import java.util.List;

/** The resources a created snapshot holds (flows, their states, locales), listed once, with its creation. */
public record SnapshotResourcesListedEvent(
        String snapshotId,
        String projectId,
        String organisationId,
        List<SnapshotResource> resources,
        long listedAt) {
}
