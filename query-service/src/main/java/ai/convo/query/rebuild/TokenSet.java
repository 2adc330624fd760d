package ai.convo.query.rebuild;

import ai.convo.http.media.Renderer;
import ai.convo.query.consistency.ProjectionProgress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.axonframework.eventhandling.Segment;
import tools.jackson.databind.JsonNode;

/**
 * What a processor has processed, segment by segment, as its stored tokens say: in segment {@code s}, every event of
 * that segment up to {@code index} except the {@code gaps}. A rebuild applies exactly the events one token set covers
 * and another does not, so the rebuilt tables always hold the events the live processor's tokens cover, no more.
 */
record TokenSet(Map<Integer, Position> segments, Segment[] masks, Position[] positions) {

    /** One segment's token. */
    record Position(long index, SortedSet<Long> gaps) {

        static final Position NOTHING = new Position(-1, new TreeSet<>());

        boolean covers(long globalIndex) {
            return globalIndex <= index && !gaps.contains(globalIndex);
        }

        /** The highest index below which this position has everything. */
        long complete() {
            return gaps.isEmpty() ? index : Math.min(index, gaps.first() - 1);
        }
    }

    static final TokenSet NONE = new TokenSet(Map.of());

    /** The segments' masks are computed once: a rebuild asks about every event. */
    TokenSet(Map<Integer, Position> segments) {
        this(Map.copyOf(new TreeMap<>(segments)), null, null);
    }

    TokenSet {
        if (masks == null) {
            int[] ids = segments.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
            masks = ids.length == 0 ? new Segment[0] : Segment.computeSegments(ids);
            positions = new Position[masks.length];
            for (int i = 0; i < masks.length; i++) {
                positions[i] = segments.get(masks[i].getSegmentId());
            }
        }
    }

    /** Whether the event, whose sequence hashes to {@code hash}, is covered by the token of its segment. */
    boolean covers(int hash, long globalIndex) {
        for (int i = 0; i < masks.length; i++) {
            if (masks[i].matches(hash)) {
                return positions[i].covers(globalIndex);
            }
        }
        return false;
    }

    /** Every event at or below this index is covered (or belongs to no event this set will ever cover). */
    long complete() {
        return segments.values().stream().mapToLong(Position::complete).min().orElse(-1);
    }

    long highest() {
        return segments.values().stream().mapToLong(Position::index).max().orElse(-1);
    }

    /** A token as stored in token_entry (JSON {"index":..,"gaps":[..]}, possibly inside a replay token). */
    static Position stored(byte[] token) {
        ProjectionProgress.Covered covered = ProjectionProgress.stored(token);
        return new Position(covered.index(), covered.gaps());
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        segments.forEach((id, p) -> json.put(Integer.toString(id), Map.of("index", p.index(), "gaps", List.copyOf(p.gaps()))));
        return json;
    }

    static TokenSet fromJson(JsonNode node) {
        if (node == null || node.isNull()) {
            return NONE;
        }
        Map<Integer, Position> segments = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            TreeSet<Long> gaps = new TreeSet<>();
            for (JsonNode gap : entry.getValue().path("gaps")) {
                gaps.add(gap.longValue());
            }
            segments.put(Integer.parseInt(entry.getKey()), new Position(entry.getValue().get("index").longValue(), gaps));
        }
        return new TokenSet(segments);
    }
}
