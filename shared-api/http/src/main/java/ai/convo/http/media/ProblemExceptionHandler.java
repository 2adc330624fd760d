package ai.convo.http.media;

import ai.convo.contract.common.DomainException;
import ai.convo.http.problem.ApiProblem;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.util.DisconnectedClientHelper;
import reactor.core.publisher.Mono;

/**
 * Turns every failure into a problem body. Client mistakes become a 4xx that says what was wrong;
 * anything else is a 500 that says only "quote the trace id", and the cause goes to the log.
 */
public final class ProblemExceptionHandler implements WebExceptionHandler, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        if (DisconnectedClientHelper.isClientDisconnectedException(error)) {
            // the client closed its connection before the answer (a load test ending, a browser tab closed): nothing
            // can be written, and nothing failed on this side
            log.debug("Request {} {}: the client went away before the answer", exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath().value());
            return Mono.empty();
        }
        ApiProblem problem = toProblem(exchange, error);
        if (problem.status().is5xxServerError()) {
            log.error("Request {} {} failed (trace {})", exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath().value(), ai.convo.http.web.TraceIds.of(exchange), error);
        }
        return ProblemWriter.write(exchange, problem);
    }

    public static ApiProblem toProblem(ServerWebExchange exchange, Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof ApiProblem problem) {
            return problem;
        }
        if (cause instanceof DomainException domain) {
            HttpStatus status = switch (domain.kind()) {
                case INVALID -> HttpStatus.BAD_REQUEST;
                case NOT_FOUND -> HttpStatus.NOT_FOUND;
                case CONFLICT -> HttpStatus.CONFLICT;
                case FORBIDDEN -> HttpStatus.FORBIDDEN;
            };
            return new ApiProblem(status, domain.detail(), domain.details());
        }
        if (hasCause(error, DataBufferLimitException.class)) {
            return new ApiProblem(HttpStatus.PAYLOAD_TOO_LARGE,
                    "The request body is larger than the server accepts (2 MiB).", Map.of());
        }
        if (cause instanceof AuthenticationException) {
            return ApiProblem.unauthorized("Authentication failed.");
        }
        if (cause instanceof AccessDeniedException) {
            return ApiProblem.forbidden("You do not have the right to do this.");
        }
        if (cause instanceof MethodNotAllowedException notAllowed) {
            Set<HttpMethod> allowed = notAllowed.getSupportedMethods();
            String list = allowed.stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", "));
            return new ApiProblem(HttpStatus.METHOD_NOT_ALLOWED,
                    "Method " + notAllowed.getHttpMethod() + " is not allowed on " + exchange.getRequest().getPath().value()
                            + "; allowed: " + list + ".", Map.of("allowed", allowed.stream().map(HttpMethod::name).sorted().toList()))
                    .withHeader("Allow", list);
        }
        if (cause instanceof NotAcceptableStatusException) {
            return new ApiProblem(HttpStatus.NOT_ACCEPTABLE, "The requested media type cannot be produced. Allowed: "
                    + Negotiation.ALLOWED + ".", Map.of());
        }
        if (cause instanceof UnsupportedMediaTypeStatusException unsupported) {
            return new ApiProblem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type "
                    + (unsupported.getContentType() == null ? "(none)" : "'" + unsupported.getContentType() + "'")
                    + " is not supported; send application/json.", Map.of());
        }
        if (cause instanceof MissingRequestValueException missing) {
            return ApiProblem.invalidParameter(missing.getName(), "The " + missing.getLabel() + " '" + missing.getName()
                    + "' is required.");
        }
        if (cause instanceof ServerWebInputException input) {
            if (hasCause(error, DecodingException.class)) {
                return ApiProblem.badRequest("The request body could not be read as JSON.");
            }
            return ApiProblem.badRequest(input.getReason() == null ? "The request is malformed." : input.getReason());
        }
        if (cause instanceof ResponseStatusException statusException) {
            HttpStatusCode code = statusException.getStatusCode();
            HttpStatus status = HttpStatus.resolve(code.value());
            if (status == null) {
                status = HttpStatus.INTERNAL_SERVER_ERROR;
            }
            if (status == HttpStatus.NOT_FOUND) {
                return ApiProblem.notFound("There is no resource at " + exchange.getRequest().getMethod() + " "
                        + exchange.getRequest().getPath().value() + ".");
            }
            if (status == HttpStatus.UNSUPPORTED_MEDIA_TYPE) {
                return new ApiProblem(status, "Content-Type '" + exchange.getRequest().getHeaders().getContentType()
                        + "' is not supported; send the body as application/json.", Map.of());
            }
            if (status.value() == 413) {
                return new ApiProblem(status, "The request body is larger than the server accepts.", Map.of());
            }
            if (status.is4xxClientError()) {
                return new ApiProblem(status, statusException.getReason() == null
                        ? status.getReasonPhrase() + "." : statusException.getReason(), Map.of());
            }
        }
        if (databaseUnavailable(error)) {
            return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "The database did not answer this request (it may "
                    + "be restarting, failing over, or a replica cancelled the read while replaying); retry after 1 s.",
                    Map.of()).withHeader("Retry-After", "1");
        }
        return new ApiProblem(HttpStatus.INTERNAL_SERVER_ERROR,
                "An unexpected error occurred. Please quote the traceId when reporting it.", Map.of());
    }

    /** Failures of a database connection or a transient refusal (by name: this module does not depend on them). */
    private static final Set<String> UNAVAILABLE = Set.of("io.r2dbc.spi.R2dbcTransientException",
            "io.r2dbc.spi.R2dbcNonTransientResourceException", "org.springframework.dao.TransientDataAccessException",
            "org.springframework.dao.DataAccessResourceFailureException", "java.net.ConnectException",
            "java.sql.SQLTransientException", "java.sql.SQLRecoverableException");

    static boolean databaseUnavailable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            for (Class<?> type = t.getClass(); type != null; type = type.getSuperclass()) {
                if (UNAVAILABLE.contains(type.getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable current = error;
        // Axon and Reactor wrap the real cause; the first known type in the chain decides.
        for (int depth = 0; current != null && depth < 10; depth++) {
            if (current instanceof ApiProblem || current instanceof DomainException) {
                return current;
            }
            current = current.getCause();
        }
        return error;
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        // Before Spring's own handlers, which would answer with a bare status.
        return -2;
    }
}
