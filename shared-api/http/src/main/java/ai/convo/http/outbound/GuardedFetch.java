package ai.convo.http.outbound;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpMethod;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * Requests on a user's behalf, within {@link OutboundGuard}: every hop of a redirect chain is checked again (scheme,
 * host, and at connect time its addresses, through {@link GuardedResolver}), with a bound on redirects, bytes each way
 * and time. Knowledge URL sources {@link #get(URI) get} documents; functions' {@code api.httpRequest} {@link #send sends}
 * any method, headers and body. Blocking: call it off the event loop.
 */
public final class GuardedFetch {

    public record Fetched(URI uri, String contentType, byte[] body) {
    }

    /** A request to make; {@code headers} and {@code body} may be null. */
    public record Request(String method, URI uri, Map<String, String> headers, byte[] body) {
    }

    /** The final answer of a chain, whatever its status; header names in lower case, repeated values joined. */
    public record Response(URI uri, int status, Map<String, String> headers, byte[] body) {
    }

    /** The request failed; the message is safe to show the user. */
    public static final class Failed extends RuntimeException {
        public Failed(String message) {
            super(message);
        }
    }

    public static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    /** Framing and routing stay the client's: a caller's Host or Content-Length could smuggle a second request. */
    private static final Set<String> NOT_SETTABLE = Set.of("host", "connection", "content-length", "transfer-encoding",
            "expect", "upgrade", "te", "keep-alive", "trailer");
    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private final OutboundGuard guard;
    private final HttpClient client;
    private final Duration timeout;
    private final int maxBytes;
    private final int maxRedirects;

    public GuardedFetch(OutboundGuard guard, Duration timeout, int maxBytes, int maxRedirects) {
        this.guard = guard;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.maxRedirects = maxRedirects;
        // No connection pool: every request resolves (and so checks) its host again, and no connection outlives it.
        this.client = HttpClient.newConnection()
                .resolver(new GuardedResolver(guard))
                .followRedirect(false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeout.toMillis(), 10_000));
    }

    /** A GET of a document within this fetch's time and size; an answer of 400 or more is {@link Failed}. */
    public Fetched get(URI start) {
        Response response = send(new Request("GET", start, null, null), timeout, maxBytes);
        if (response.status() >= 400) {
            throw new Failed("The URL " + response.uri() + " answered HTTP " + response.status() + ".");
        }
        return new Fetched(response.uri(), response.headers().get("content-type"), response.body());
    }

    /**
     * Sends {@code request} and follows redirects (303, and 301/302 after a POST, become a GET without body) within one
     * deadline of {@code timeout} for the whole chain and {@code maxBytes} for the request's body and the answer's.
     */
    public Response send(Request request, Duration timeout, int maxBytes) {
        String method = request.method() == null ? "GET" : request.method().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new Failed("The method must be one of " + new java.util.TreeSet<>(METHODS) + "; got '"
                    + request.method() + "'.");
        }
        byte[] body = request.body();
        if (body != null && body.length > maxBytes) {
            throw new Failed("The request body has " + body.length + " bytes; at most " + maxBytes + " are sent.");
        }
        Map<String, String> headers = settable(request.headers());
        URI start = request.uri();
        // One deadline for the whole chain: redirects do not buy a request more time.
        long deadline = System.nanoTime() + timeout.toNanos();
        URI uri = start;
        for (int hop = 0; hop <= maxRedirects; hop++) {
            Hop answer;
            try {
                answer = exchange(method, uri, headers, body, deadline, timeout, maxBytes);
            } catch (OutboundGuard.Refused refused) {
                throw hop == 0 ? refused
                        : new OutboundGuard.Refused("The URL " + start + " redirected to " + uri + ": " + refused.getMessage());
            }
            if (answer.location() == null) {
                return new Response(uri, answer.status(), answer.headers(), answer.body());
            }
            uri = uri.resolve(answer.location());
            if (answer.status() == 303 && !method.equals("HEAD")
                    || (answer.status() == 301 || answer.status() == 302) && method.equals("POST")) {
                method = "GET";
                body = null;
            }
        }
        throw new Failed("The URL " + start + " redirects more than " + maxRedirects + " times.");
    }

    private Hop exchange(String method, URI uri, Map<String, String> headers, byte[] body, long deadline,
                         Duration timeout, int maxBytes) {
        guard.checkUrl(uri);
        // An address literal never reaches the resolver (the client connects to it as given): check it here.
        // A name is checked here and again by GuardedResolver on the addresses actually connected to.
        try {
            guard.resolve(uri.getHost());
        } catch (java.net.UnknownHostException e) {
            throw new Failed("The host " + uri.getHost() + " is not known.");
        }
        Duration left = Duration.ofNanos(deadline - System.nanoTime());
        if (left.isNegative() || left.isZero()) {
            throw timedOut(uri, timeout);
        }
        HttpClient.RequestSender sender = client.responseTimeout(left)
                .headers(h -> headers.forEach(h::set))
                .request(HttpMethod.valueOf(method)).uri(uri);
        HttpClient.ResponseReceiver<?> receiver = body == null ? sender
                : sender.send(ByteBufFlux.fromInbound(Mono.just(Unpooled.wrappedBuffer(body))));
        try {
            return receiver.response((response, content) -> {
                int status = response.status().code();
                Map<String, String> answerHeaders = new LinkedHashMap<>();
                response.responseHeaders().forEach(h -> answerHeaders.merge(h.getKey().toLowerCase(Locale.ROOT),
                        h.getValue(), (a, b) -> a + ", " + b));
                String location = answerHeaders.get("location");
                if (status >= 300 && status < 400 && location != null) {
                    return Mono.just(new Hop(status, location, answerHeaders, null));
                }
                long declared = response.responseHeaders().getInt("Content-Length", -1);
                if (declared > maxBytes) {
                    return Mono.error(new Failed("The response from " + uri + " has " + declared + " bytes; at most "
                            + maxBytes + " are read."));
                }
                // Counted as it streams: a chunked body (no Content-Length) is cut off past the limit, never
                // buffered whole.
                return content.asByteArray().reduce(new Bounded(maxBytes, uri), Bounded::add)
                        .defaultIfEmpty(new Bounded(maxBytes, uri))
                        .map(bounded -> new Hop(status, null, answerHeaders, bounded.bytes()));
            }).next().timeout(left).block();
        } catch (OutboundGuard.Refused | Failed refused) {
            throw refused;
        } catch (RuntimeException e) {
            if (hasCause(e, InterruptedException.class)) {
                // a run being stopped: the caller's thread keeps its interrupt
                Thread.currentThread().interrupt();
                throw new Failed("The request to " + uri + " was interrupted.");
            }
            if (hasCause(e, java.util.concurrent.TimeoutException.class)
                    || hasCause(e, io.netty.handler.timeout.ReadTimeoutException.class)) {
                throw timedOut(uri, timeout);
            }
            throw cause(e, uri);
        }
    }

    private static Map<String, String> settable(Map<String, String> headers) {
        Map<String, String> settable = new LinkedHashMap<>();
        if (headers == null) {
            return settable;
        }
        headers.forEach((name, value) -> {
            if (name == null || !TOKEN.matcher(name).matches()) {
                throw new Failed("The header name '" + name + "' is not a valid HTTP header name.");
            }
            if (value == null || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                throw new Failed("The header " + name + " has no value or a line break in it.");
            }
            if (!NOT_SETTABLE.contains(name.toLowerCase(Locale.ROOT))) {
                settable.put(name, value);
            }
        });
        return settable;
    }

    private static Failed timedOut(URI uri, Duration timeout) {
        return new Failed("The URL " + uri + " did not answer within " + timeout.toSeconds() + " s.");
    }

    /** A body being received, refused as soon as it passes the limit. */
    private static final class Bounded {
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        private final int max;
        private final URI uri;

        Bounded(int max, URI uri) {
            this.max = max;
            this.uri = uri;
        }

        Bounded add(byte[] part) {
            if ((long) out.size() + part.length > max) {
                throw new Failed("The response from " + uri + " is larger than " + max + " bytes, the most read.");
            }
            out.writeBytes(part);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private record Hop(int status, String location, Map<String, String> headers, byte[] body) {
    }

    private static RuntimeException cause(RuntimeException e, URI uri) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutboundGuard.Refused refused) {
                return refused;
            }
            if (t instanceof Failed failed) {
                return failed;
            }
        }
        String why = e.getCause() != null ? e.getCause().getClass().getSimpleName() : e.getClass().getSimpleName();
        return new Failed("The URL " + uri + " could not be reached (" + why + ").");
    }
}
