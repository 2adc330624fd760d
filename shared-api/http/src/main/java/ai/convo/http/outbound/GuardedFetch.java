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
            Hop answer;
            try {
                answer = client.get().uri(current).responseSingle((response, body) -> {
                    int status = response.status().code();
                    String location = response.responseHeaders().get("Location");
                    String type = response.responseHeaders().get("Content-Type");
                    if (status >= 300 && status < 400 && location != null) {
                        return Mono.just(new Hop(status, location, type, null));
                    }
                    long declared = response.responseHeaders().getInt("Content-Length", -1);
                    if (declared > maxBytes) {
                        return Mono.error(new Failed("The document at " + current + " has " + declared
                                + " bytes; at most " + maxBytes + " are fetched."));
                    }
                    return body.asByteArray().defaultIfEmpty(new byte[0])
                            .map(bytes -> new Hop(status, null, type, bytes));
                }).timeout(timeout.plusSeconds(1)).block();
            } catch (OutboundGuard.Refused | Failed refused) {
                throw refused;
            } catch (RuntimeException e) {
                throw cause(e, current);
            }
            if (answer.location() != null) {
                uri = current.resolve(answer.location());
                continue;
            }
            if (answer.status() >= 400) {
                throw new Failed("The URL " + current + " answered HTTP " + answer.status() + ".");
            }
            if (answer.body().length > maxBytes) {
                throw new Failed("The document at " + current + " is larger than " + maxBytes + " bytes.");
            }
            return new Fetched(current, answer.contentType(), answer.body());
        }
        throw new Failed("The URL " + start + " redirects more than " + maxRedirects + " times.");
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
