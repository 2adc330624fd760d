package ai.convo.contract.knowledge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A Knowledge Source as the API shows it. Both services produce exactly this shape. */
public record KnowledgeSourceRecord(
        String id,
        String referenceId,
        String name,
        String description,
        String type,
        String status,
        int chunkCount,
        List<String> tags,
        Map<String, Object> data,
        String storeReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy,
        String failReason) {

    /** A source whose ingestion did not fail (no {@code metaData.failReason}). */
    public KnowledgeSourceRecord(String id, String referenceId, String name, String description, String type,
                                 String status, int chunkCount, List<String> tags, Map<String, Object> data,
                                 String storeReference, long createdAt, long lastChanged, String createdBy,
                                 String lastChangedBy) {
        this(id, referenceId, name, description, type, status, chunkCount, tags, data, storeReference, createdAt,
                lastChanged, createdBy, lastChangedBy, null);
    }

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("name", name);
        wire.put("description", description);
        wire.put("type", type);
        wire.put("status", status);
        wire.put("chunkCount", chunkCount);
        Map<String, Object> metaData = new LinkedHashMap<>();
        metaData.put("tags", tags);
        if (failReason != null) {
            metaData.put("failReason", failReason);
        }
        wire.put("metaData", metaData);
        wire.put("data", data);
        wire.put("storeReference", storeReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
