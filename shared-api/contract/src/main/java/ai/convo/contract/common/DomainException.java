package ai.convo.contract.common;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A broken business rule, raised by the write model. The HTTP layer maps the kind to a status
 * (INVALID 400, NOT_FOUND 404, CONFLICT 409) and the detail to the problem body.
 */
public class DomainException extends RuntimeException {

    public enum Kind { INVALID, NOT_FOUND, CONFLICT, FORBIDDEN }

    private final Kind kind;
    private final Map<String, Object> details;

    public DomainException(Kind kind, String detail, Map<String, Object> details) {
        super(detail, null, false, false);
        this.kind = kind;
        this.details = details == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public static DomainException invalid(String field, String detail) {
        return new DomainException(Kind.INVALID, detail, Map.of(field, detail));
    }

    public static DomainException invalid(String detail) {
        return new DomainException(Kind.INVALID, detail, Map.of());
    }

    public static DomainException notFound(String detail) {
        return new DomainException(Kind.NOT_FOUND, detail, Map.of());
    }

    public static DomainException conflict(String detail) {
        return new DomainException(Kind.CONFLICT, detail, Map.of());
    }

    public static DomainException conflict(String detail, Map<String, Object> details) {
        return new DomainException(Kind.CONFLICT, detail, details);
    }

    public static DomainException forbidden(String detail) {
        return new DomainException(Kind.FORBIDDEN, detail, Map.of());
    }

    public Kind kind() {
        return kind;
    }

    public String detail() {
        return getMessage();
    }

    public Map<String, Object> details() {
        return details;
    }
}
