package ai.convo.http.media;

import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ServerWebExchange;

/** Builds the HTTP answer of an operation in the media type negotiated for it. */
public final class ApiResponses {

    public static final String EVENT_POSITION = "X-Event-Position";

    private ApiResponses() {
    }

    public static ResponseEntity<byte[]> ok(ServerWebExchange exchange, ApiMedia media, Representation body) {
        return respond(exchange, HttpStatus.OK, media, body, null, null);
    }

    public static ResponseEntity<byte[]> respond(ServerWebExchange exchange, HttpStatus status, ApiMedia media,
                                                 Representation body, String location, Long eventPosition) {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(status).contentType(media.contentType());
        if (location != null) {
            builder.location(URI.create(location));
        }
        if (eventPosition != null) {
            builder.header(EVENT_POSITION, Long.toString(eventPosition));
        }
        return builder.body(Renderer.render(exchange, media, body));
    }

    public static ResponseEntity<byte[]> noContent(Long eventPosition) {
        HttpHeaders headers = new HttpHeaders();
        if (eventPosition != null) {
            headers.set(EVENT_POSITION, Long.toString(eventPosition));
        }
        return ResponseEntity.noContent().headers(headers).build();
    }
}
