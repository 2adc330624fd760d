package ai.convo.query.knowledge;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Built search indexes by organisation and store, each valid for the fingerprint of the chunks it was built from (read
 * with every search, so any change of a chunk, of its source's status or of the set builds it again). Least recently
 * used ones are dropped past a total of {@link #MAX_CHUNKS} chunks, so memory stays bounded (~6 MB per 10,000
 * chunks of 1,800 characters, text not stored, and 15 MB more for their embeddings).
 */
@Component
class StoreIndexes {

    static final int MAX_CHUNKS = 50_000;

    private record Entry(String fingerprint, ChunkSearch.Index index) {
    }

    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private int chunks;

    /** The kept index for this key, if it was built from chunks of this fingerprint. */
    synchronized ChunkSearch.Index find(String key, String fingerprint) {
        Entry entry = entries.get(key);
        return entry != null && entry.fingerprint().equals(fingerprint) ? entry.index() : null;
    }

    /**
     * Keeps {@code index} for the key (replacing an older one) unless it alone passes the bound; drops the least
     * recently used past it. A dropped index is left to the garbage collector (heap only): a search may still read it.
     */
    synchronized void keep(String key, String fingerprint, ChunkSearch.Index index) {
        Entry old = entries.remove(key);
        if (old != null) {
            chunks -= old.index().size();
        }
        if (index.size() > MAX_CHUNKS) {
            return;
        }
        entries.put(key, new Entry(fingerprint, index));
        chunks += index.size();
        for (Iterator<Map.Entry<String, Entry>> eldest = entries.entrySet().iterator();
             chunks > MAX_CHUNKS && eldest.hasNext(); ) {
            chunks -= eldest.next().getValue().index().size();
            eldest.remove();
        }
    }
}
