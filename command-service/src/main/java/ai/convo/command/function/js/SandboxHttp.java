package ai.convo.command.function.js;

import ai.convo.http.outbound.OutboundAddressGuard;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code api.httpRequest}: one outbound call, checked by the {@link OutboundAddressGuard} before it is sent and again at
 * every redirect hop (redirects are followed here, never by the client), with a timeout and a cap on both bodies.
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
    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    private static final Set<String> NOT_SETTABLE = Set.of("host", "connection", "content-length", "expect", "upgrade");

    private final OutboundAddressGuard guard;
    private final HttpClient client;

    public SandboxHttp(OutboundAddressGuard guard) {
        this.guard = guard;
        this.client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    public Answer send(Call call, SandboxLimits limits) {
        String method = call.method() == null ? "GET" : call.method().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new CallRefused("httpRequest: method must be one of " + METHODS + "; got '" + call.method() + "'.");
        }
        if (call.body() != null && call.body().length() > limits.httpBodyBytes()) {
            throw new CallRefused("httpRequest: the request body is over " + limits.httpBodyBytes() + " characters.");
        }
        URI target;
        try {
            target = guard.check(call.url() == null ? "" : call.url());
        } catch (OutboundAddressGuard.Refused refused) {
            throw new CallRefused("httpRequest to " + call.url() + " refused: " + refused.getMessage());
        }
        for (int hop = 0; ; hop++) {
            HttpResponse<InputStream> response = exchange(method, target, call, limits);
            int status = response.statusCode();
            String location = response.headers().firstValue("location").orElse(null);
            if (status >= 300 && status < 400 && location != null) {
                drain(response);
                if (hop >= MAX_REDIRECTS) {
                    throw new CallRefused("httpRequest to " + call.url() + ": more than " + MAX_REDIRECTS + " redirects.");
                }
                URI next = target.resolve(location);
                try {
                    guard.check(next);
                } catch (OutboundAddressGuard.Refused refused) {
                    throw new CallRefused("httpRequest to " + call.url() + " redirected to " + next + ", refused: "
                            + refused.getMessage());
                }
                target = next;
                if (status == 303 || ((status == 301 || status == 302) && method.equals("POST"))) {
                    method = "GET";
                    call = new Call(method, next.toString(), call.headers(), null);
                }
                continue;
            }
            return new Answer(status, headers(response), body(response, limits));
        }
    }

    private HttpResponse<InputStream> exchange(String method, URI target, Call call, SandboxLimits limits) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(limits.httpTimeout());
        if (call.headers() != null) {
            call.headers().forEach((name, value) -> {
                if (!NOT_SETTABLE.contains(name.toLowerCase(Locale.ROOT))) {
                    request.header(name, value);
                }
            });
        }
        request.method(method, call.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(call.body()));
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new CallRefused("httpRequest to " + target + " failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallRefused("httpRequest to " + target + " was interrupted.");
        }
    }

    private static Map<String, String> headers(HttpResponse<?> response) {
        Map<String, String> headers = new LinkedHashMap<>();
        response.headers().map().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", values)));
        return headers;
    }

    private static String body(HttpResponse<InputStream> response, SandboxLimits limits) {
        try (InputStream in = response.body()) {
            byte[] bytes = in.readNBytes(limits.httpBodyBytes() + 1);
            if (bytes.length > limits.httpBodyBytes()) {
                throw new CallRefused("httpRequest: the response body is over " + limits.httpBodyBytes() + " bytes.");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CallRefused("httpRequest: reading the response failed: " + e.getMessage());
        }
    }

    private static void drain(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            in.readNBytes(64 * 1024);
        } catch (IOException ignored) {
            // the redirect's own body does not matter
        }
    }
}
