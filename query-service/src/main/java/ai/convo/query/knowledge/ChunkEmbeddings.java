package ai.convo.query.knowledge;

import ai.convo.persistence.Backlog;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Embeds the chunks of English stores in the background, on one daemon thread (never a request's or a projection's),
 * into {@code knowledge_chunk_embedding}. Each round takes at most {@code batch} pending chunks, the organisations in
 * turn ({@code perOrganisation} each at most, oldest first), so a 1,000-chunk upload of one organisation delays
 * another's single chunk by one round at most. A row is written only if its chunk is still the version that was read
 * (its xmin), so a chunk changed meanwhile stays pending and is embedded again. Derived data: deleting the table's
 * rows only makes the worker compute them again.
 */
@Component
class ChunkEmbeddings extends Backlog {

    private static final Logger log = LoggerFactory.getLogger(ChunkEmbeddings.class);

    /** How often (in idle rounds) rows whose chunk is gone are swept. */
    private static final int SWEEP_EVERY = 100;

    record Pending(String chunkId, String organisationId, String text, long version, boolean sameText) {
    }

    /** What a round did: chunks embedded, chunks whose unchanged text only took the new version, rows swept. */
    record Round(int embedded, int versioned, int written) {
        boolean idle() {
            return embedded == 0 && versioned == 0;
        }
    }

    private static final String PENDING = "SELECT c.id, c.organisation_id, c.text, c.xmin::text::bigint AS version, "
            + "coalesce(e.model = ? AND e.text_md5 = md5(c.text), false) AS same_text "
            + "FROM (SELECT c.id, c.organisation_id, row_number() OVER (PARTITION BY c.organisation_id "
            + "        ORDER BY c.created_at, c.id) AS turn "
            + "      FROM knowledge_chunk_view c JOIN knowledge_store_view s ON s.id = c.store_id "
            + "      LEFT JOIN knowledge_chunk_embedding e ON e.chunk_id = c.id "
            + "      WHERE s.language LIKE 'en-%' "
            + "        AND (e.chunk_id IS NULL OR e.chunk_version <> c.xmin::text::bigint OR e.model <> ?)) p "
            + "JOIN knowledge_chunk_view c ON c.id = p.id LEFT JOIN knowledge_chunk_embedding e ON e.chunk_id = c.id "
            + "WHERE p.turn <= ? ORDER BY p.turn, p.organisation_id LIMIT ?";

    private static final String UPSERT = "INSERT INTO knowledge_chunk_embedding "
            + "(chunk_id, organisation_id, chunk_version, text_md5, model, vector) "
            + "SELECT c.id, c.organisation_id, c.xmin::text::bigint, md5(c.text), ?, ? FROM knowledge_chunk_view c "
            + "WHERE c.id = ? AND c.xmin::text::bigint = ? "
            + "ON CONFLICT (chunk_id) DO UPDATE SET chunk_version = excluded.chunk_version, "
            + "text_md5 = excluded.text_md5, model = excluded.model, vector = excluded.vector";

    private static final String TAKE_VERSION = "UPDATE knowledge_chunk_embedding e SET chunk_version = c.xmin::text::bigint "
            + "FROM knowledge_chunk_view c WHERE e.chunk_id = ? AND c.id = e.chunk_id AND c.xmin::text::bigint = ? "
            + "AND e.text_md5 = md5(c.text)";

    private final JdbcTemplate jdbc;
    private final ChunkEmbedder embedder;
    private final int batch;
    private final int perOrganisation;
    private int idle;

    @Autowired
    ChunkEmbeddings(JdbcTemplate jdbc, ChunkEmbedder embedder,
                    @Value("${app.knowledge.embeddings.interval:200ms}") Duration interval,
                    @Value("${app.knowledge.embeddings.batch:16}") int batch,
                    @Value("${app.knowledge.embeddings.per-organisation:4}") int perOrganisation) {
        super("knowledge-embeddings", interval);
        this.jdbc = jdbc;
        this.embedder = embedder;
        this.batch = batch;
        this.perOrganisation = perOrganisation;
    }

    @Override
    protected boolean workOnce() {
        return !round().idle();
    }

    /** Every SWEEP_EVERY drained backlogs, the rows of deleted chunks go. */
    @Override
    protected void drained() {
        if (++idle % SWEEP_EVERY == 0) {
            sweep();
        }
    }

    // ---- one round

    /** The next round's chunks: the organisations in turn, oldest chunks first. */
    List<Pending> pending() {
        return jdbc.query(PENDING, (rs, i) -> new Pending(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getLong(4), rs.getBoolean(5)), ChunkEmbedder.MODEL, ChunkEmbedder.MODEL, perOrganisation, batch);
    }

    /** Embeds one round of pending chunks and writes those still unchanged. */
    Round round() {
        List<Pending> pending = pending();
        List<Pending> changed = new ArrayList<>();
        int versioned = 0;
        for (Pending chunk : pending) {
            if (chunk.sameText()) {
                versioned += jdbc.update(TAKE_VERSION, chunk.chunkId(), chunk.version());
            } else {
                changed.add(chunk);
            }
        }
        if (changed.isEmpty()) {
            return new Round(0, versioned, 0);
        }
        List<float[]> vectors = embed(changed);
        List<Object[]> rows = new ArrayList<>(changed.size());
        for (int i = 0; i < changed.size(); i++) {
            rows.add(new Object[] {ChunkEmbedder.MODEL, bytes(vectors.get(i)), changed.get(i).chunkId(),
                    changed.get(i).version()});
        }
        int written = 0;
        for (int count : jdbc.batchUpdate(UPSERT, rows)) {
            written += Math.max(count, 0);
        }
        return new Round(changed.size(), versioned, written);
    }

    /**
     * The chunks' vectors; if the batch fails, each on its own, and one that cannot be embedded (e.g. no token in it)
     * gets a zero vector, which matches nothing, rather than stopping its organisation's queue.
     */
    private List<float[]> embed(List<Pending> chunks) {
        try {
            return embedder.embed(chunks.stream().map(Pending::text).toList());
        } catch (RuntimeException batchFailed) {
            List<float[]> vectors = new ArrayList<>(chunks.size());
            for (Pending chunk : chunks) {
                try {
                    vectors.add(embedder.embed(chunk.text()));
                } catch (ChunkEmbedder.Unavailable e) {
                    throw e;
                } catch (RuntimeException e) {
                    log.warn("Knowledge chunk {} cannot be embedded; it is searched by BM25 only: {}", chunk.chunkId(),
                            e.toString());
                    vectors.add(new float[ChunkEmbedder.DIMENSIONS]);
                }
            }
            return vectors;
        }
    }

    /** Removes the rows whose chunk is gone (deleted, or its source, store or project). */
    int sweep() {
        return jdbc.update("DELETE FROM knowledge_chunk_embedding e WHERE NOT EXISTS "
                + "(SELECT 1 FROM knowledge_chunk_view c WHERE c.id = e.chunk_id)");
    }

    static byte[] bytes(float[] vector) {
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * Float.BYTES);
        buffer.asFloatBuffer().put(vector);
        return buffer.array();
    }

    static float[] vector(ByteBuffer bytes) {
        float[] vector = new float[bytes.remaining() / Float.BYTES];
        bytes.asFloatBuffer().get(vector);
        return vector;
    }
}
