package ai.convo.http.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class OutboundAddressGuardTest {

    private static InetAddress[] at(String ip) {
        try {
            return new InetAddress[] {InetAddress.getByName(ip)};
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
            "100.64.0.1", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "224.0.0.1"})
    void refuses_a_host_that_resolves_to_a_private_address(String ip) {
        // given: a name that resolves (after DNS) to a private address
        OutboundAddressGuard guard = new OutboundAddressGuard(Set.of(), host -> at(ip));

        // when / then
        assertThatThrownBy(() -> guard.check("http://innocent.example.com/x"))
                .isInstanceOf(OutboundAddressGuard.Refused.class).hasMessageContaining("only public addresses");
    }

    @Test
    void accepts_a_public_address_and_an_allowed_host() {
        assertThat(new OutboundAddressGuard(Set.of(), host -> at("93.184.216.34")).check("https://example.com/")).isNotNull();
        assertThat(new OutboundAddressGuard(Set.of("localhost"), host -> at("127.0.0.1")).check("http://LOCALHOST:8080/"))
                .isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///etc/passwd", "ftp://example.com/", "gopher://x/", "http:///nohost", "http://user:pw@example.com/"})
    void refuses_other_schemes_and_odd_urls(String url) {
        OutboundAddressGuard guard = new OutboundAddressGuard(Set.of(), host -> at("93.184.216.34"));
        assertThatThrownBy(() -> guard.check(url)).isInstanceOf(OutboundAddressGuard.Refused.class);
    }
}
