package ai.convo.query.eventlog;

import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code GET /v2.0/eventlog}: the organisation's events in the order of its log, each with its position, as
 * {@code application/x-ndjson} (a bulk read up to the newest event when it starts, streamed at the pace the client
 * reads) or {@code text/event-stream} (a live tail: the id of each event is its position, so a reconnecting
 * EventSource resumes after the last one it got, with neither a gap nor a repeat).
 */
@RestController
public class EventLogController {

    static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");
    private static final String ALLOWED = "application/x-ndjson, text/event-stream";
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final byte[] KEEP_ALIVE_COMMENT = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private final EventLogReader reader;
    private final EventLogTail tail;

    public EventLogController(EventLogReader reader, EventLogTail tail) {
        this.reader = reader;
        this.tail = tail;
    }

    @GetMapping("/v2.0/eventlog")
    public Mono<Void> eventLog(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        boolean live = live(exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT));
        String organisation = LogAccess.organisation(exchange, caller);
        String lastEventId = live ? lastEventId(exchange) : null;
        LogQuery query = LogQuery.parse(exchange, organisation, lastEventId);
        ServerHttpResponse response = exchange.getResponse();
        DataBufferFactory buffers = response.bufferFactory();
        response.setStatusCode(HttpStatus.OK);
        response.getHeaders().setCacheControl("no-store");
        if (!live) {
            response.getHeaders().setContentType(NDJSON);
            return response.writeWith(reader.ndjson(query).map(buffers::wrap));
        }
        response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
        // Behind a proxy (nginx) an event stream must not be buffered.
        response.getHeaders().set("X-Accel-Buffering", "no");
        Flux<DataBuffer> events = tail.follow(query, POLL).map(line -> buffers.wrap(sse(line)));
        Flux<DataBuffer> keepAlive = Flux.interval(KEEP_ALIVE).map(tick -> buffers.wrap(KEEP_ALIVE_COMMENT));
        Flux<DataBuffer> start = Flux.just(buffers.wrap("retry: 1000\n\n".getBytes(StandardCharsets.US_ASCII)));
        return response.writeAndFlushWith(start.concatWith(Flux.merge(events, keepAlive)).map(Flux::just));
    }

    /** An EventSource's reconnect sends Last-Event-ID; a client that cannot send headers may use the parameter. */
    private static String lastEventId(ServerWebExchange exchange) {
        String header = exchange.getRequest().getHeaders().getFirst("Last-Event-ID");
        return header != null ? header : exchange.getRequest().getQueryParams().getFirst("lastEventId");
    }

    static byte[] sse(EventLogReader.Line line) {
        byte[] head = ("id: " + line.position() + "\ndata: ").getBytes(StandardCharsets.US_ASCII);
        byte[] event = new byte[head.length + line.json().length + 2];
        System.arraycopy(head, 0, event, 0, head.length);
        System.arraycopy(line.json(), 0, event, head.length, line.json().length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }

    /** text/event-stream: the live tail; NDJSON (also for no Accept, any type, or JSON): the bulk read; else 406. */
    static boolean live(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> accepted;
        try {
            accepted = new java.util.ArrayList<>(MediaType.parseMediaTypes(accept));
        } catch (InvalidMediaTypeException e) {
            throw notAcceptable("The Accept header is not a valid media type list.");
        }
        accepted.sort(java.util.Comparator.comparingDouble(MediaType::getQualityValue).reversed());
        for (MediaType type : accepted) {
            if (type.getQualityValue() <= 0) {
                continue;
            }
            if (type.isCompatibleWith(MediaType.TEXT_EVENT_STREAM) && !type.isWildcardType()
                    && !type.isWildcardSubtype()) {
                return true;
            }
            if (type.isWildcardType() || type.isCompatibleWith(NDJSON) || type.isCompatibleWith(MediaType.APPLICATION_JSON)) {
                return false;
            }
        }
        throw notAcceptable("None of the media types in Accept can be produced. Allowed: " + ALLOWED + ".");
    }

    private static ApiProblem notAcceptable(String detail) {
        return new ApiProblem(HttpStatus.NOT_ACCEPTABLE, detail, Map.of("allowed", List.of(ALLOWED.split(", "))));
    }
}
