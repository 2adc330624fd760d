package ai.convo.contract.knowledge;

import java.util.Map;

/** The fields of a chunk PATCH. A null means "leave unchanged"; data replaces the whole object. */
public record KnowledgeChunkPatch(String text, Integer order, Map<String, Object> data, Boolean disabled) {
}
