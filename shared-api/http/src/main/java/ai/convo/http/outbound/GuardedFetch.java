package ai.convo.http.outbound;

import io.netty.channel.ChannelOption;
import java.net.URI;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * A GET on a user's behalf, within {@link OutboundGuard}: every hop of a redirect chain is checked again (scheme, host,
 * and at connect time its addresses), with a bound on redirects, bytes and time. Blocking: call it off the event loop.
 */
public final class GuardedFetch {

    public record Fetched(URI uri, String contentType, byte[] body) {
    }

    /** The fetch failed; the message is safe to show the user. */
    public static final class Failed extends RuntimeException {
        public Failed(String message) {
            super(message);
        }
    }

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
        this.client = HttpClient.create()
                .resolver(new GuardedResolver(guard))
                .followRedirect(false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeout.toMillis(), 10_000))
                .responseTimeout(timeout);
    }

    public Fetched get(URI start) {
        // One deadline for the whole chain: redirects do not buy a fetch more time.
        long deadline = System.nanoTime() + timeout.toNanos();
        URI uri = start;
        for (int hop = 0; hop <= maxRedirects; hop++) {
            guard.checkUrl(uri);
            URI current = uri;
            // An address literal never reaches the resolver (the client connects to it as given): check it here.
            // A name is checked here and again by GuardedResolver on the addresses actually connected to.
            try {
                guard.resolve(current.getHost());
            } catch (java.net.UnknownHostException e) {
                throw new Failed("The host " + current.getHost() + " is not known.");
            }
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            if (left.isNegative() || left.isZero()) {
                throw timedOut(start);
            }
            Hop answer;
            try {
                answer = client.get().uri(current).response((response, body) -> {
                    int status = response.status().code();
                    String location = response.responseHeaders().get("Location");
                    String type = response.responseHeaders().get("Content-Type");
                    if (status >= 300 && status < 400 && location != null) {
                        return Mono.just(new Hop(status, location, type, null));
                    }
                    if (status >= 400) {
                        return Mono.just(new Hop(status, null, type, new byte[0]));
                    }
                    long declared = response.responseHeaders().getInt("Content-Length", -1);
                    if (declared > maxBytes) {
                        return Mono.error(new Failed("The document at " + current + " has " + declared
                                + " bytes; at most " + maxBytes + " are fetched."));
                    }
                    // Counted as it streams: a chunked body (no Content-Length) is cut off past the limit, never
                    // buffered whole.
                    return body.asByteArray().reduce(new Bounded(maxBytes, current), Bounded::add)
                            .map(bounded -> new Hop(status, null, type, bounded.bytes()));
                }).next().timeout(left).block();
            } catch (OutboundGuard.Refused | Failed refused) {
                throw refused;
            } catch (RuntimeException e) {
                if (hasCause(e, java.util.concurrent.TimeoutException.class)
                        || hasCause(e, io.netty.handler.timeout.ReadTimeoutException.class)) {
                    throw timedOut(start);
                }
                throw cause(e, current);
            }
            if (answer == null) {
                throw new Failed("The URL " + current + " answered nothing.");
            }
            if (answer.location() != null) {
                uri = current.resolve(answer.location());
                continue;
            }
            if (answer.status() >= 400) {
                throw new Failed("The URL " + current + " answered HTTP " + answer.status() + ".");
            }
            return new Fetched(current, answer.contentType(), answer.body());
        }
        throw new Failed("The URL " + start + " redirects more than " + maxRedirects + " times.");
    }

    private Failed timedOut(URI start) {
        return new Failed("The URL " + start + " was not fetched within " + timeout.toSeconds() + " s.");
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
                throw new Failed("The document at " + uri + " is larger than " + max + " bytes, the most fetched.");
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

    private record Hop(int status, String location, String contentType, byte[] body) {
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
        return new Failed("The URL " + uri + " could not be fetched (" + why + ").");
    }

}
