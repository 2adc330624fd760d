package ai.convo.query.consistency;

import java.util.Set;

/**
 * What a read's own look-up (sent after the read arrived) found of the gaps in the projections' tokens: the ones no
 * event fills ({@code absent}: rolled-back appends, or appends still in flight, which are none of this read's
 * principal's acknowledged writes), and the position up to which every event but those is projected. A gap left by
 * one rolled-back append otherwise stays in the tokens for 10,000 events, and every read would look for it again.
 */
public record CheckedGaps(Set<Long> absent, long projectedUpTo) {

    public static final CheckedGaps NONE = new CheckedGaps(Set.of(), 0);

    public CheckedGaps {
        absent = Set.copyOf(absent);
    }
}
