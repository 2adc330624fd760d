package ai.convo.command.snapshot;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Snapshot content as bytes and its hash. Properties in alphabetical order and map entries (an intent's free-form
 * {@code data}) by key, so the bytes depend on the content alone; the hash is the SHA-256 of those bytes, as 64
 * lowercase hex characters.
 */
final class SnapshotCodec {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private SnapshotCodec() {
    }

    static byte[] encode(SnapshotContent content) {
        return JSON.writeValueAsBytes(content);
    }

    static SnapshotContent decode(byte[] bytes) {
        return JSON.readValue(bytes, SnapshotContent.class);
    }

    static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
