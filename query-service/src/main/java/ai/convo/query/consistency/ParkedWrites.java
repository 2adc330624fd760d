package ai.convo.query.consistency;

import java.util.Optional;

/**
 * Writes a projection parked (the dead-letter queue answers): a read that must reflect one is refused with a 409
 * instead of showing rows without it ({@link ReadYourWritesFilter}).
 */
public interface ParkedWrites {

    /** A parked sequence: the processing group it stopped in, and its first event's trace id and position. */
    record Blocking(String group, String traceId, long position) {
    }

    /**
     * The parked sequence a read of this organisation that must reflect {@code position} would miss: the first one
     * of the organisation stopped at or below the position. Empty when there is none.
     */
    Optional<Blocking> blocking(String organisationId, long position);
}
