package ai.convo.contract.rebuild;

import ai.convo.contract.resource.ResourceTypes;
import java.util.List;
import java.util.stream.Stream;

/** The query service's projections (its processing groups), by the names an operator rebuilds them with. */
public final class Projections {

    /** The projection of every event, whatever resource it changes: the event log and audit trail. */
    public static final String EVENT_LOG = "eventlog";

    /** Those of the resource types, in their order, then the event log's. */
    public static final List<String> NAMES = Stream.concat(ResourceTypes.projections().stream(), Stream.of(EVENT_LOG))
            .toList();

    /** The task type of a rebuild. */
    public static final String REBUILD_TASK = "rebuildProjections";

    private Projections() {
    }
}
