package ai.convo.query.intent;

import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentRecord;
import ai.convo.contract.intent.SentenceRecord;
import ai.convo.http.media.Renderer;
import io.r2dbc.spi.Readable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/** Rows of intent_view and sentence_view as the contract's records. */
final class IntentRows {

    private IntentRows() {
    }

    static IntentRecord intent(Readable row) {
        String parent = row.get("parent_intent_id", String.class);
        return new IntentRecord(row.get("id", String.class), row.get("reference_id", String.class),
                row.get("name", String.class), row.get("description", String.class), strings(row.get("tags", String.class)),
                Boolean.TRUE.equals(row.get("is_reject_intent", Boolean.class)),
                Boolean.TRUE.equals(row.get("is_disabled", Boolean.class)),
                parent == null || parent.isEmpty() ? null : parent, row.get("condition", String.class),
                strings(row.get("confirmation_sentences", String.class)),
                row.get("disambiguation_sentence", String.class), strings(row.get("rules", String.class)),
                object(row.get("data", String.class)), childFeatures(row.get("child_features", String.class)),
                row.get("bias", String.class), row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class));
    }

    /** A list item, its localeReference and sentenceCount still to be filled in. */
    static Map<String, Object> listItem(Readable row) {
        return intent(row).toListItem(null, 0);
    }

    static SentenceRecord sentence(Readable row) {
        return new SentenceRecord(row.get("id", String.class), row.get("text", String.class),
                row.get("locale_id", String.class), row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class));
    }

    static Map<String, Object> sentenceWire(Readable row) {
        return sentence(row).toWire();
    }

    private static List<String> strings(String json) {
        return Renderer.JSON.readValue(json, new TypeReference<List<String>>() { });
    }

    private static Map<String, Object> object(String json) {
        return Renderer.JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
    }

    private static ChildFeatures childFeatures(String json) {
        JsonNode node = Renderer.JSON.readTree(json);
        if (node.isArray()) {
            List<String> ids = new ArrayList<>();
            node.forEach(id -> ids.add(id.stringValue()));
            return ChildFeatures.of(ids);
        }
        return ChildFeatures.of(node.booleanValue());
    }
}
