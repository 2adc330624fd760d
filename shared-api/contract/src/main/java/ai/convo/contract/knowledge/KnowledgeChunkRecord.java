package ai.convo.contract.knowledge;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Knowledge Chunk as the API shows it (the official client's IKnowledgeChunk). Both services produce this shape. */
public record KnowledgeChunkRecord(
        String id,
        String referenceId,
        int order,
        String text,
        boolean disabled,
        Map<String, Object> data,
        String storeReference,
        String sourceReference,
        String projectReference,
        String organisationReference,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("referenceId", referenceId);
        wire.put("order", order);
        wire.put("text", text);
        wire.put("disabled", disabled);
        wire.put("data", data);
        wire.put("storeReference", storeReference);
        wire.put("sourceReference", sourceReference);
        wire.put("projectReference", projectReference);
        wire.put("organisationReference", organisationReference);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
