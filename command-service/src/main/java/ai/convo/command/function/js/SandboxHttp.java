package ai.convo.command.function.js;

import ai.convo.http.outbound.GuardedFetch;
import ai.convo.http.outbound.OutboundGuard;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * {@code api.httpRequest}: one outbound call through the {@link GuardedFetch} knowledge URL sources use, so the same
 * {@link OutboundGuard} checks every hop on the addresses actually connected to (DNS rebinding gains nothing), within
 * the instance's {@link SandboxLimits} for time and body size.
 */
public final class SandboxHttp {

    /** A call the function asked for that cannot be made; the message is shown to the function's author. */
    public static final class CallRefused extends RuntimeException {
        public CallRefused(String message) {
            super(message);
        }
    }

    public record Call(String method, String url, Map<String, String> headers, String body) {
    }

    public record Answer(int status, Map<String, String> headers, String body) {
    }

    private static final int MAX_REDIRECTS = 5;

    private final GuardedFetch fetch;

    public SandboxHttp(OutboundGuard guard) {
        // the time and size given here are never used: each call passes its instance's limits
        this.fetch = new GuardedFetch(guard, Duration.ofSeconds(30), 1024 * 1024, MAX_REDIRECTS);
    }

    public Answer send(Call call, SandboxLimits limits) {
        URI target;
        try {
            target = URI.create(call.url() == null ? "" : call.url());
        } catch (IllegalArgumentException e) {
            throw new CallRefused("httpRequest to " + call.url() + " refused: the URL is not valid: " + e.getMessage());
        }
        byte[] body = call.body() == null ? null : call.body().getBytes(StandardCharsets.UTF_8);
        try {
            GuardedFetch.Response response = fetch.send(new GuardedFetch.Request(call.method(), target, call.headers(),
                    body), limits.httpTimeout(), limits.httpBodyBytes());
            return new Answer(response.status(), response.headers(), new String(response.body(), StandardCharsets.UTF_8));
        } catch (OutboundGuard.Refused | GuardedFetch.Failed refused) {
            throw new CallRefused("httpRequest to " + call.url() + " refused: " + refused.getMessage());
        }
    }
}
