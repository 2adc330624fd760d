package ai.convo.gateway;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
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
 * when it passes the limit. Either way the client gets the 413 problem body (ProblemErrorHandler).
 */
final class BodySizeLimit implements WebFilter, Ordered {

    static final class TooLarge extends ResponseStatusException {
        TooLarge(long limit) {
            super(HttpStatus.PAYLOAD_TOO_LARGE, "The request body is larger than the server accepts (" + limit
                    + " bytes).");
        }
    }

    private final long limit;

    BodySizeLimit(long limit) {
        this.limit = limit;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
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
