package ai.convo.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.web.server.header.CacheControlServerHttpHeadersWriter;
import org.springframework.security.web.server.header.CompositeServerHttpHeadersWriter;
import org.springframework.security.web.server.header.ContentTypeOptionsServerHttpHeadersWriter;
import org.springframework.security.web.server.header.ReferrerPolicyServerHttpHeadersWriter;
import org.springframework.security.web.server.header.ServerHttpHeadersWriter;
import org.springframework.security.web.server.header.StrictTransportSecurityServerHttpHeadersWriter;
import org.springframework.security.web.server.header.XFrameOptionsServerHttpHeadersWriter;
import org.springframework.security.web.server.header.XXssProtectionServerHttpHeadersWriter;

/** The one-pass writer answers exactly as Spring Security's default writers would, whatever the response holds. */
class SecurityHeadersTest {

    /** Spring Security's defaults (ServerHttpSecurity.HeaderSpec), in their order. */
    private static final ServerHttpHeadersWriter DEFAULTS = new CompositeServerHttpHeadersWriter(
            new CacheControlServerHttpHeadersWriter(), new ContentTypeOptionsServerHttpHeadersWriter(),
            new StrictTransportSecurityServerHttpHeadersWriter(), new XFrameOptionsServerHttpHeadersWriter(),
            new XXssProtectionServerHttpHeadersWriter(), new ReferrerPolicyServerHttpHeadersWriter());

    private static Map<String, List<String>> written(ServerHttpHeadersWriter writer, String url, HttpStatus status,
                                                     Consumer<HttpHeaders> before) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get(url));
        exchange.getResponse().setStatusCode(status);
        before.accept(exchange.getResponse().getHeaders());
        writer.writeHttpHeaders(exchange).block();
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        exchange.getResponse().getHeaders().forEach(headers::put);
        return headers;
    }

    @Test
    void writesWhatTheDefaultsWriteInEveryCase() {
        List<Consumer<HttpHeaders>> responses = List.of(
                headers -> { },
                headers -> headers.set("Cache-Control", "max-age=60"),
                headers -> headers.set("expires", "Thu, 01 Jan 2099 00:00:00 GMT"),
                headers -> headers.set("Pragma", "x"),
                headers -> headers.set("X-Frame-Options", "SAMEORIGIN"),
                headers -> headers.set("x-content-type-options", "other"),
                headers -> headers.set("Referrer-Policy", "origin"),
                headers -> headers.set("X-XSS-Protection", "1"),
                headers -> headers.set("Strict-Transport-Security", "max-age=1"));
        int compared = 0;
        for (String url : List.of("http://localhost/new/v2.0/projects", "https://example.com/new/v2.0/projects")) {
            for (HttpStatus status : List.of(HttpStatus.OK, HttpStatus.NOT_MODIFIED, HttpStatus.UNAUTHORIZED,
                    HttpStatus.NOT_FOUND)) {
                for (Consumer<HttpHeaders> before : responses) {
                    assertThat(written(new SecurityHeaders(), url, status, before))
                            .as("%s %s", url, status)
                            .isEqualTo(written(DEFAULTS, url, status, before));
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(72);
    }

    @Test
    void aPlainResponseGetsEveryHeader() {
        Map<String, List<String>> headers = written(new SecurityHeaders(), "https://example.com/new", HttpStatus.OK,
                h -> { });
        assertThat(headers).containsEntry("Cache-Control", List.of("no-cache, no-store, max-age=0, must-revalidate"))
                .containsEntry("Pragma", List.of("no-cache")).containsEntry("Expires", List.of("0"))
                .containsEntry("X-Content-Type-Options", List.of("nosniff"))
                .containsEntry("X-Frame-Options", List.of("DENY")).containsEntry("X-XSS-Protection", List.of("0"))
                .containsEntry("Referrer-Policy", List.of("no-referrer"))
                .containsKey("Strict-Transport-Security");
    }
}
