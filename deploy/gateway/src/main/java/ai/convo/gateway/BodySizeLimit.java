package ai.convo.gateway;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import java.util.regex.Pattern;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The services' body limit, enforced before a body is forwarded. A service refuses a larger body with a 413 and
 * closes the connection while the gateway is still sending it, which the gateway saw as a broken backend (502).
 * A declared Content-Length over the limit is refused at once; a chunked body is counted as it streams and refused
 * when it passes the limit. Either way the client gets the 413 problem body (ProblemErrorHandler). The routes that
 * take a file (a knowledge upload: the vendor's 10 MB) have their own, larger limit; every other route keeps 2 MiB.
 */
final class BodySizeLimit implements WebFilter, Ordered {

    static final class TooLarge extends ResponseStatusException {
        TooLarge(long limit) {
            super(HttpStatus.PAYLOAD_TOO_LARGE, "The request body is larger than the server accepts ("
                    + readable(limit) + ").");
        }
    }

    /** 2 MiB, 10 MiB + 64 KiB, or bytes: how a limit reads in a problem body. */
    static String readable(long bytes) {
        long mib = bytes / (1024 * 1024);
        long kib = (bytes % (1024 * 1024)) / 1024;
        if (bytes % 1024 != 0 || mib == 0) {
            return bytes + " bytes";
        }
        return mib + " MiB" + (kib == 0 ? "" : " + " + kib + " KiB");
    }

    private final long limit;
    /** POSTs to these paths may carry up to {@link #uploadLimit}: the routes that take a file. */
    private final Pattern uploadPaths;
    private final long uploadLimit;

    BodySizeLimit(long limit) {
        this(limit, null, limit);
    }

    BodySizeLimit(long limit, Pattern uploadPaths, long uploadLimit) {
        this.limit = limit;
        this.uploadPaths = uploadPaths;
        this.uploadLimit = uploadLimit;
    }

    long limitFor(ServerHttpRequest request) {
        return uploadPaths != null && HttpMethod.POST.equals(request.getMethod())
                && uploadPaths.matcher(request.getPath().value()).matches() ? uploadLimit : limit;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        long limit = limitFor(request);
        long declared = request.getHeaders().getContentLength();
        if (declared > limit) {
            return Mono.error(new TooLarge(limit));
        }
        if (declared >= 0) {
            return chain.filter(exchange);
        }
        ServerHttpRequest counted = new ServerHttpRequestDecorator(request) {
            @Override
            public Flux<DataBuffer> getBody() {
                long[] seen = {0};
                return super.getBody().handle((buffer, sink) -> {
                    seen[0] += buffer.readableByteCount();
                    if (seen[0] > limit) {
                        org.springframework.core.io.buffer.DataBufferUtils.release(buffer);
                        sink.error(new TooLarge(limit));
                    } else {
                        sink.next(buffer);
                    }
                });
            }
        };
        return chain.filter(exchange.mutate().request(counted).build());
    }
}
