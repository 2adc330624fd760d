package ai.convo.http.media;

import ai.convo.http.problem.ApiProblem;
import ai.convo.http.web.TraceIds;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Writes RFC 7807 problem bodies in the shape the specification gives, as JSON or (when asked for) XML. */
public final class ProblemWriter {

    public static final MediaType PROBLEM_JSON = MediaType.parseMediaType("application/problem+json");
    public static final MediaType PROBLEM_XML = MediaType.parseMediaType("application/problem+xml");

    private ProblemWriter() {
    }

    public static Map<String, Object> body(ServerWebExchange exchange, ApiProblem problem) {
        HttpStatus status = problem.status();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", reasonPhrase(status));
        body.put("title", status == HttpStatus.INTERNAL_SERVER_ERROR
                ? reasonPhrase(status) : reasonPhrase(status) + " Error");
        body.put("status", status.value());
        body.put("detail", problem.detail());
        body.put("instance", exchange.getRequest().getPath().value());
        body.put("code", problem.code());
        body.put("traceId", TraceIds.of(exchange));
        body.put("details", problem.details());
        if (status == HttpStatus.NOT_FOUND) {
            body.put("logLevel", "info");
        }
        return body;
    }

    /** The specification's phrases; Spring 7 calls 413 "Content Too Large", the specification "Payload Too Large". */
    static String reasonPhrase(HttpStatus status) {
        return status.value() == 413 ? "Payload Too Large" : status.getReasonPhrase();
    }

    public static Mono<Void> write(ServerWebExchange exchange, ApiProblem problem) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.empty();
        }
        Map<String, Object> body = body(exchange, problem);
        boolean xml = wantsXml(exchange);
        byte[] bytes = xml ? Renderer.xml("problem", body) : Renderer.JSON.writeValueAsBytes(body);
        response.setStatusCode(problem.status());
        HttpHeaders headers = response.getHeaders();
        // A body written for a success (e.g. Location, event position) must not survive into the error.
        headers.remove(HttpHeaders.LOCATION);
        headers.setContentType(xml ? PROBLEM_XML : PROBLEM_JSON);
        headers.setContentLength(bytes.length);
        problem.headers().forEach((name, values) -> headers.put(name, values));
        DataBuffer buffer = response.bufferFactory().wrap(bytes);
        return response.writeWith(Mono.just(buffer));
    }

    /** XML when the client asked for XML (or its negotiation chose it); JSON in every other case, 406 included. */
    private static boolean wantsXml(ServerWebExchange exchange) {
        ApiMedia chosen = Negotiation.chosen(exchange);
        if (chosen != null) {
            return chosen.isXml();
        }
        String accept = exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT);
        if (accept == null) {
            return false;
        }
        try {
            List<MediaType> types = MediaType.parseMediaTypes(accept);
            for (MediaType type : types) {
                if (type.getSubtype().equals("xml") || type.getSubtype().endsWith("+xml")) {
                    return true;
                }
                if (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json") || type.isWildcardType()) {
                    return false;
                }
            }
        } catch (InvalidMediaTypeException ignored) {
            // fall through to JSON
        }
        return false;
    }
}
