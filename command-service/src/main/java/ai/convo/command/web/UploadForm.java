package ai.convo.command.web;

import ai.convo.contract.common.StorableText;
import ai.convo.http.HttpConfiguration;
import ai.convo.http.body.StorableJson;
import ai.convo.http.problem.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.Part;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A multipart/form-data upload as the official client sends it (GenericUploadFn): a {@code file} part and short text
 * fields. Unknown and missing fields are one 400 naming them all; another media type is a 415.
 */
public final class UploadForm {

    private static final int FIELD_MAX_BYTES = 1000;

    private final Map<String, String> fields;
    private final byte[] file;
    private final String fileName;

    private UploadForm(Map<String, String> fields, byte[] file, String fileName) {
        this.fields = fields;
        this.file = file;
        this.fileName = fileName;
    }

    /**
     * Reads the form. {@code required} maps each required field (the file included, as "file") to what it is, for
     * the 400; {@code optional} are the other fields taken.
     */
    public static Mono<UploadForm> read(ServerWebExchange exchange, Map<String, String> required,
                                        java.util.Set<String> optional) {
        return read(exchange, required, optional, HttpConfiguration.MAX_BODY_BYTES);
    }

    /** The same, with a file of up to {@code maxFileBytes} (a larger one is a 413 naming the limit). */
    public static Mono<UploadForm> read(ServerWebExchange exchange, Map<String, String> required,
                                        java.util.Set<String> optional, int maxFileBytes) {
        MediaType type;
        try {
            type = exchange.getRequest().getHeaders().getContentType();
        } catch (org.springframework.http.InvalidMediaTypeException malformed) {
            type = null;
        }
        TreeSet<String> allowed = new TreeSet<>(required.keySet());
        allowed.addAll(optional);
        if (type == null || !type.isCompatibleWith(MediaType.MULTIPART_FORM_DATA)) {
            return Mono.error(new ApiProblem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Upload as multipart/form-data with "
                    + "the fields " + String.join(", ", allowed) + ".", Map.of()));
        }
        return exchange.getMultipartData()
                // no boundary, a broken part: the body is not the form it says it is
                .onErrorMap(e -> !(e instanceof ApiProblem), e -> ApiProblem.badRequest("The body is not valid "
                        + "multipart/form-data (it needs a boundary parameter and parts separated by it); send the "
                        + "fields " + String.join(", ", allowed) + "."))
                .flatMap(parts -> {
            Map<String, Object> problems = new LinkedHashMap<>();
            parts.keySet().stream().filter(name -> !allowed.contains(name))
                    .forEach(name -> problems.put(name, "unknown field; allowed: " + String.join(", ", allowed)));
            // a second file (or field) would be dropped unread: one value each, as for query parameters
            parts.forEach((name, values) -> {
                if (values.size() > 1 && allowed.contains(name)) {
                    problems.put(name, "was given " + values.size() + " times; send one " + (name.equals("file")
                            ? "file" : "value") + " per upload");
                }
            });
            new TreeSet<>(required.keySet()).stream().filter(name -> parts.getFirst(name) == null)
                    .forEach(name -> problems.put(name, "is required: " + required.get(name)));
            if (!problems.isEmpty()) {
                StringBuilder detail = new StringBuilder("The upload is invalid: ");
                problems.forEach((name, problem) -> detail.append(name).append(' ').append(problem).append("; "));
                return Mono.error(ApiProblem.badRequest(detail.substring(0, detail.length() - 2) + ".", problems));
            }
            Map<String, String> fields = new LinkedHashMap<>();
            Mono<Void> texts = Flux.fromIterable(allowed).filter(name -> !name.equals("file") && parts.getFirst(name) != null)
                    .concatMap(name -> bytes(parts.getFirst(name), FIELD_MAX_BYTES)
                            .onErrorMap(DataBufferLimitException.class, e -> ApiProblem.invalidParameter(name,
                                    "The upload's field " + name + " is longer than a form field may be ("
                                            + FIELD_MAX_BYTES + " bytes); only the file may be larger."))
                            .doOnNext(value -> fields.put(name, new String(value, StandardCharsets.UTF_8).trim())))
                    .then(Mono.defer(() -> unstorable(fields)));
            Part file = parts.getFirst("file");
            String fileName = file instanceof org.springframework.http.codec.multipart.FilePart named
                    ? named.filename() : null;
            return texts.then(file == null ? Mono.just(new byte[0]) : bytes(file, maxFileBytes)
                            .onErrorMap(DataBufferLimitException.class, e -> new ApiProblem(HttpStatus.PAYLOAD_TOO_LARGE,
                                    "The uploaded file is larger than " + maxFileBytes + " bytes, the most a file may "
                                            + "have here.", Map.of("file", "at most " + maxFileBytes + " bytes"))))
                    .map(content -> new UploadForm(fields, content, fileName));
        });
    }

    private static Mono<Void> unstorable(Map<String, String> fields) {
        Map<String, Object> problems = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            String problem = StorableText.problem(value);
            if (problem != null) {
                problems.put(name, problem);
            }
        });
        return problems.isEmpty() ? Mono.empty() : Mono.error(StorableJson.refusal("The upload", problems));
    }

    private static Mono<byte[]> bytes(Part part, int max) {
        return DataBufferUtils.join(part.content(), max).map(buffer -> {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            DataBufferUtils.release(buffer);
            return bytes;
        }).defaultIfEmpty(new byte[0]);
    }

    /** A text field's value (trimmed), or null when it was not sent. */
    public String field(String name) {
        return fields.get(name);
    }

    public byte[] file() {
        return file;
    }

    /** The file part's own name (the Node client sends "fake.txt" unless told otherwise), or null. */
    public String fileName() {
        return fileName;
    }
}
