package ai.convo.gateway;

import ai.convo.edge.ProblemJson;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

import reactor.core.publisher.Mono;

/**
 * Errors the gateway itself produces (backend down, slow, broken) as RFC 7807 problem JSON in the services' shape.
 * Runs before Spring Boot's default handler (order -1). Proxied responses never pass through here.
 */
class ProblemErrorHandler implements WebExceptionHandler, Ordered {

    private static final Log LOG = LogFactory.getLog(ProblemErrorHandler.class);

    @Override
    public int getOrder() {
        return -2;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(error);
        }
        HttpStatus status = statusFor(error);
        String traceId = ProblemJson.newTraceId();
        String path = exchange.getRequest().getPath().value();
        LOG.warn(status.value() + " for " + exchange.getRequest().getMethod() + " " + path + " (traceId " + traceId
                + "): " + error);

        // the specification's phrase; Spring 7 calls 413 "Content Too Large"
        String reason = status.value() == 413 ? "Payload Too Large" : status.getReasonPhrase();
        String body = "{\"type\":" + ProblemJson.json(reason)
                + ",\"title\":" + ProblemJson.json(reason + " Error")
                + ",\"status\":" + status.value()
                + ",\"detail\":" + ProblemJson.json(detailFor(status, error))
                + ",\"instance\":" + ProblemJson.json(path)
                + ",\"code\":" + ProblemJson.json(status == HttpStatus.SERVICE_UNAVAILABLE ? "503" : "1000")
                + ",\"traceId\":" + ProblemJson.json(traceId)
                + ",\"details\":{}}";
        response.getHeaders().clear();
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().set("X-Trace-Id", traceId);
        // Proxied responses carry the services' own CORS header; our own errors must carry one too.
        response.getHeaders().set("Access-Control-Allow-Origin", "*");
        if (status == HttpStatus.SERVICE_UNAVAILABLE) {
            // no replica of that side is reachable: one that restarts takes a few seconds
            response.getHeaders().set("Retry-After", "1");
        }
        DataBuffer buffer = response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8));
        return response.writeWith(Mono.just(buffer));
    }

    static HttpStatus statusFor(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof UnknownHostException) {
                return HttpStatus.SERVICE_UNAVAILABLE;
            }
            if (t instanceof TimeoutException || t instanceof io.netty.handler.timeout.TimeoutException) {
                return HttpStatus.GATEWAY_TIMEOUT;
            }
        }
        if (error instanceof ResponseStatusException rse) {
            HttpStatusCode code = rse.getStatusCode();
            // Client errors and the gateway's own 503/504 keep their status; anything else is a bad gateway.
            if (code.is4xxClientError() || code.value() == 503 || code.value() == 504) {
                HttpStatus resolved = HttpStatus.resolve(code.value());
                if (resolved != null) {
                    return resolved;
                }
            }
        }
        return HttpStatus.BAD_GATEWAY;
    }

    private static String detailFor(HttpStatus status, Throwable error) {
        if (status.value() == 413) {
            // the limit of the route asked (an upload's is larger), or the services' usual one
            return error instanceof BodySizeLimit.TooLarge tooLarge ? tooLarge.getReason()
                    : "The request body is larger than the server accepts (2 MiB).";
        }
        return switch (status) {
            case SERVICE_UNAVAILABLE -> "The backend service is not reachable right now; please retry shortly.";
            case GATEWAY_TIMEOUT -> "The backend service did not answer in time.";
            case BAD_GATEWAY -> "The backend service failed to return a valid response.";
            default -> "The request could not be processed: " + status.getReasonPhrase() + ".";
        };
    }
}
