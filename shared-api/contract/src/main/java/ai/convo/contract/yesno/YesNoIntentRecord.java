package ai.convo.contract.yesno;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A yes/no intent as the client reads it: {@code {_id, name, rules, isDisabled}}. */
public record YesNoIntentRecord(String id, YesNoKind kind, List<String> rules, boolean disabled) {

    /** Longest rule, in characters (as an intent's). */
    public static final int MAX_RULE_LENGTH = 1000;
    public static final int MAX_RULES = 100;
    public static final int MAX_SENTENCE_LENGTH = 1000;
    /** Sentences an intent may hold; the trainer reads them all in one task. */
    public static final int MAX_SENTENCES = 2000;

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("name", kind.wire());
        wire.put("rules", rules);
        wire.put("isDisabled", disabled);
        return wire;
    }

    /** The client's key of this intent in readYesNoIntents' answer. */
    public String wireKey() {
        return kind.wire() + "Intent";
    }
}
