package ai.convo.contract.knowledge;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The status of a Knowledge Source. A client may move a source between {@code ready} and {@code disabled};
 * {@code ingesting} and {@code failure} are set by the system only (creation and the ingestion step).
 */
public enum SourceStatus {
    READY("ready"), INGESTING("ingesting"), DISABLED("disabled"), FAILURE("failure");

    private final String code;

    SourceStatus(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The statuses a client may set from this one (the current one aside, which is no move). */
    public List<SourceStatus> clientTargets() {
        return switch (this) {
            case READY -> List.of(DISABLED);
            case DISABLED -> List.of(READY);
            // ingesting: wait for the ingestion step; failure: delete the source and create it again.
            case INGESTING, FAILURE -> List.of();
        };
    }

    public static Optional<SourceStatus> fromCode(String code) {
        return Arrays.stream(values()).filter(s -> s.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(SourceStatus::code).toList();
    }
}
