package ai.convo.http.problem;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** An error a client caused (or could act on), carried up to the problem handler as an exception. */
public class ApiProblem extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, Object> details;
    private final HttpHeaders headers = new HttpHeaders();

    public ApiProblem(HttpStatus status, String detail, Map<String, Object> details) {
        this(status, defaultCode(status), detail, details);
    }

    public ApiProblem(HttpStatus status, String code, String detail, Map<String, Object> details) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details == null ? Map.of() : new LinkedHashMap<>(details);
    }

    /** The service error codes of the specification's table. */
    public static String defaultCode(HttpStatus status) {
        return switch (status.value()) {
            case 401 -> "401";
            case 402 -> "402";
            case 409 -> "1004";
            case 429 -> "429";
            case 501 -> "1009";
            case 503 -> "503";
            default -> "1000";
        };
    }

    public static ApiProblem badRequest(String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, detail, Map.of());
    }

    public static ApiProblem badRequest(String detail, Map<String, Object> details) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, detail, details);
    }

    public static ApiProblem invalidParameter(String parameter, String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, detail, Map.of(parameter, detail));
    }

    public static ApiProblem notFound(String detail) {
        return new ApiProblem(HttpStatus.NOT_FOUND, detail, Map.of());
    }

    public static ApiProblem conflict(String detail) {
        return new ApiProblem(HttpStatus.CONFLICT, detail, Map.of());
    }

    public static ApiProblem unauthorized(String detail) {
        return new ApiProblem(HttpStatus.UNAUTHORIZED, detail, Map.of());
    }

    public static ApiProblem forbidden(String detail) {
        return new ApiProblem(HttpStatus.FORBIDDEN, detail, Map.of());
    }

    public ApiProblem withHeader(String name, String value) {
        headers.add(name, value);
        return this;
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String detail() {
        return getMessage();
    }

    public Map<String, Object> details() {
        return details;
    }

    public HttpHeaders headers() {
        return headers;
    }
}
