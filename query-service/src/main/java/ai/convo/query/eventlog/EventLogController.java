package ai.convo.query.eventlog;

import ai.convo.http.openapi.AnswerMedia;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import io.netty.channel.ChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.NettyOutbound;

/**
 * {@code GET /v2.0/eventlog}: the organisation's events in the order of its log, each with its position, as
 * {@code application/x-ndjson} (a bulk read up to the newest event when it starts, streamed at the pace the client
 * reads) or {@code text/event-stream} (a live tail: the id of each event is its position, so a reconnecting
 * EventSource resumes after the last one it got, with neither a gap nor a repeat). Neither holds a database
 * connection while it writes; a client that stops reading is cut after the stall timeout, and each organisation may
 * have only so many streams open at once ({@link StreamLimit}).
 */
@RestController
class EventLogController {

    static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");
    private static final String ALLOWED = "application/x-ndjson, text/event-stream";
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final byte[] KEEP_ALIVE_COMMENT = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private static final Logger log = LoggerFactory.getLogger(EventLogController.class);

    private final EventLogReader reader;
    private final EventLogTail tail;
    private final StreamLimit limit;
    private final Duration stallTimeout;
    private final Duration keepAlive;

    /**
     * {@code stallTimeout}: how long a stream waits for a client that has stopped reading before it cuts the
     * connection (the client resumes after the last position it got). An event stream's keep-alive comes at least
     * three times within it, so a quiet tail whose client reads is never taken for a stalled one.
     */
    public EventLogController(EventLogReader reader, EventLogTail tail, StreamLimit limit,
                              @Value("${app.eventlog.stall-timeout:60s}") Duration stallTimeout) {
        if (stallTimeout.compareTo(Duration.ofSeconds(3)) < 0) {
            throw new IllegalArgumentException("app.eventlog.stall-timeout must be at least 3s; got " + stallTimeout);
        }
        this.reader = reader;
        this.tail = tail;
        this.limit = limit;
        this.stallTimeout = stallTimeout;
        Duration third = stallTimeout.dividedBy(3);
        this.keepAlive = third.compareTo(KEEP_ALIVE) < 0 ? third : KEEP_ALIVE;
    }

    @AnswerMedia({"application/x-ndjson", MediaType.TEXT_EVENT_STREAM_VALUE})
    @GetMapping("/v2.0/eventlog")
    public Mono<Void> eventLog(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        boolean live = live(exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT));
        String organisation = LogAccess.organisation(exchange, caller);
        String lastEventId = live ? lastEventId(exchange) : null;
        LogQuery query = LogQuery.parse(exchange, organisation, lastEventId);
        AtomicBoolean cut = new AtomicBoolean();
        return Mono.using(() -> limit.acquire(organisation), permit -> stream(exchange, live, query, permit, cut)
                        // the write fails once its connection is closed: nothing more to say, to anyone
                        .onErrorResume(failure -> cut.get(), failure -> Mono.empty()),
                StreamLimit.Permit::close);
    }

    private Mono<Void> stream(ServerWebExchange exchange, boolean live, LogQuery query, StreamLimit.Permit permit,
                              AtomicBoolean cut) {
        ServerHttpResponse response = exchange.getResponse();
        DataBufferFactory buffers = response.bufferFactory();
        response.setStatusCode(HttpStatus.OK);
        response.getHeaders().setCacheControl("no-store");
        response.getHeaders().set("RateLimit-Policy", limit.policy());
        response.getHeaders().set("RateLimit", permit.rateLimit());
        if (!live) {
            response.getHeaders().setContentType(NDJSON);
            // the reader produces a chunk only when the server's writer asks for one: none for this long, stalled
            return cutWhenStalled(reader.ndjson(query).map(buffers::wrap), response::writeWith, response, query, permit,
                    cut);
        }
        response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
        // Behind a proxy (nginx) an event stream must not be buffered.
        response.getHeaders().set("X-Accel-Buffering", "no");
        Flux<DataBuffer> events = tail.follow(query, POLL).map(line -> buffers.wrap(sse(line)));
        // keep-alives a stalled client does not take are dropped (the interval would fail without demand)
        Flux<DataBuffer> keepAlives = Flux.interval(keepAlive).onBackpressureDrop()
                .map(tick -> buffers.wrap(KEEP_ALIVE_COMMENT));
        Flux<DataBuffer> start = Flux.just(buffers.wrap("retry: 1000\n\n".getBytes(StandardCharsets.US_ASCII)));
        // a client that reads takes a keep-alive at least three times per stall timeout
        return cutWhenStalled(start.concatWith(Flux.merge(events, keepAlives)),
                written -> response.writeAndFlushWith(written.map(Flux::just)), response, query, permit, cut);
    }

    /**
     * Writes the stream and closes the connection of a client that takes nothing for the stall timeout: while the
     * stream has more (the writer asks for nothing), or after its end (its last bytes stay unwritten). An abort, not
     * an end, so the client cannot take what it got for the whole log; it resumes after the last position it read.
     * Closed from here: the server's writer would wait for the stalled socket before it ended the response.
     */
    private <T> Mono<Void> cutWhenStalled(Flux<T> stream, Function<Flux<T>, Mono<Void>> writer,
                                          ServerHttpResponse response, LogQuery query, StreamLimit.Permit permit,
                                          AtomicBoolean cut) {
        Sinks.Empty<Void> ended = Sinks.empty();
        Runnable close = () -> {
            if (cut.compareAndSet(false, true)) {
                permit.close();
                log.info("Closed an event-log stream of organisation {}: its client took nothing for {}",
                        query.organisationId(), stallTimeout);
                // a reset: the kernel drops what the client did not take at once (a graceful close would wait for it)
                if (ServerHttpResponseDecorator.getNativeResponse(response) instanceof NettyOutbound outbound) {
                    outbound.withConnection(connection -> {
                        connection.channel().config().setOption(ChannelOption.SO_LINGER, 0);
                        connection.channel().close();
                    });
                }
            }
        };
        Flux<T> watched = stream.timeout(stallTimeout)
                .doOnError(TimeoutException.class, stalled -> close.run())
                .doOnComplete(ended::tryEmitEmpty);
        return writer.apply(watched)
                .timeout(ended.asMono().then(Mono.delay(stallTimeout)))
                .doOnError(TimeoutException.class, stalled -> close.run());
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
