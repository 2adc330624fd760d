package ai.convo.contract.systemmessage;

import java.util.LinkedHashMap;
import java.util.Map;

/** A System message as the API shows it. Both services produce exactly this shape. */
public record SystemMessageRecord(
        String id,
        String message,
        long until,
        boolean showOnLogin,
        long createdAt,
        long lastChanged,
        String createdBy,
        String lastChangedBy) {

    /** The specification's timestamp range. */
    public static final long MAX_UNTIL = 2_147_483_647L;
    /** The specification gives no limit; a banner text longer than this is a mistake, not a message. */
    public static final int MAX_MESSAGE_LENGTH = 10_000;

    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", id);
        wire.put("message", message);
        wire.put("until", until);
        wire.put("showOnLogin", showOnLogin);
        wire.put("createdAt", createdAt);
        wire.put("lastChanged", lastChanged);
        wire.put("createdBy", createdBy);
        wire.put("lastChangedBy", lastChangedBy);
        return wire;
    }
}
