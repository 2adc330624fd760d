package ai.convo.contract.knowledge;

import java.util.List;
import java.util.Map;

/** The fields of a Knowledge Source PATCH. A null means "leave unchanged"; tags and data replace the whole value. */
public record KnowledgeSourcePatch(String name, String description, SourceStatus status, List<String> tags,
                                   Map<String, Object> data) {

    public static KnowledgeSourcePatch empty() {
        return new KnowledgeSourcePatch(null, null, null, null, null);
    }

    public boolean isEmpty() {
        return name == null && description == null && status == null && tags == null && data == null;
    }
}
