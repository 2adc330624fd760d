package ai.convo.contract.knowledge;

import java.util.Map;

/** A chunk an ingestion found, in document order, with the ids it will have. */
public record KnowledgeChunkDraft(String chunkId, String referenceId, String text, Map<String, Object> data) {
}
