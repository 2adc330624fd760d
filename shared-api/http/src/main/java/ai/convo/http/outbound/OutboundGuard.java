package ai.convo.http.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one rule for requests this server makes on a user's behalf (knowledge URL sources, and the functions runtime's
 * api.httpRequest): http or https only, no credentials in the URL, and never an address inside the operator's
 * network: loopback, private (RFC 1918, IPv6 unique-local), link-local (cloud metadata), carrier-grade NAT, unspecified,
 * multicast or reserved, also when an IPv6 address embeds one. The check is on the addresses a name resolves to, at
 * connect time ({@link GuardedResolver}), so DNS that answers a public address to a check and a private one to the
 * connection gains nothing; a redirect is a new request, checked again. An operator may allow hosts by name
 * ({@code allowedHosts}), which skips the address check for them only (tests serve documents from loopback so).
 */
public final class OutboundGuard {

    /** A refused destination; the message says which rule and is safe to show the user. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message);
        }
    }

    /** How a host name becomes addresses: the system resolver, or (in tests) a DNS that changes its answers. */
    @FunctionalInterface
    public interface Lookup {
        InetAddress[] all(String host) throws UnknownHostException;
    }

    private final Set<String> allowedHosts;
    private final Lookup lookup;

    public OutboundGuard(Set<String> allowedHosts) {
        this(allowedHosts, InetAddress::getAllByName);
    }

    public OutboundGuard(Set<String> allowedHosts, Lookup lookup) {
        this.allowedHosts = allowedHosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty()).collect(Collectors.toUnmodifiableSet());
        this.lookup = lookup;
    }

    /** Hosts from an operator's setting: names separated by commas or spaces; blank allows none. */
    public static OutboundGuard allowing(String hostList) {
        return new OutboundGuard(hostList == null ? Set.of() : java.util.Arrays.stream(hostList.split("[,\\s]+"))
                .filter(h -> !h.isBlank()).collect(Collectors.toSet()));
    }

    public static OutboundGuard strict() {
        return new OutboundGuard(Set.of());
    }

    /** The URL's own rules (scheme, host, no user info); the addresses are checked when it is connected. */
    public URI checkUrl(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Refused("Only http and https URLs are called; got '" + scheme + "'.");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new Refused("The URL has no host.");
        }
        if (uri.getRawUserInfo() != null) {
            throw new Refused("URLs with credentials (user@host) are not called.");
        }
        return uri;
    }

    public boolean allowsHost(String host) {
        return allowedHosts.contains(unbracketed(host).toLowerCase(Locale.ROOT));
    }

    /** The addresses of {@code host} it may connect to: all it resolves to, each one public (or the host allowed). */
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] addresses = lookup.all(unbracketed(host));
        if (allowsHost(host)) {
            return addresses;
        }
        for (InetAddress address : addresses) {
            if (!isPublic(address)) {
                throw new Refused("The host " + host + " resolves to " + address.getHostAddress() + ", an address "
                        + "inside a private network (loopback, private, link-local or reserved); only public addresses are called.");
            }
        }
        return addresses;
    }

    /** Whether an address is on the public internet (not any kind of local, private or reserved range). */
    public static boolean isPublic(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return publicV4(b[0] & 0xff, b[1] & 0xff, b[2] & 0xff);
        }
        if (address instanceof Inet6Address) {
            int first = b[0] & 0xff;
            if ((first & 0xfe) == 0xfc) {
                return false; // fc00::/7 unique local
            }
            if (first == 0x20 && (b[1] & 0xff) == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
                return false; // 2001:db8::/32 documentation
            }
            boolean zeros = true;
            for (int i = 0; i < 10; i++) {
                zeros &= b[i] == 0;
            }
            // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the embedded IPv4 address decides
            if (zeros && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0))) {
                return publicV4(b[12] & 0xff, b[13] & 0xff, b[14] & 0xff);
            }
            // 64:ff9b::/96 NAT64 and 2002::/16 6to4 embed IPv4 too
            if (first == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
                return publicV4(b[12] & 0xff, b[13] & 0xff, b[14] & 0xff);
            }
            if (first == 0x20 && (b[1] & 0xff) == 0x02) {
                return publicV4(b[2] & 0xff, b[3] & 0xff, b[4] & 0xff);
            }
            return true;
        }
        return false;
    }

    private static boolean publicV4(int a, int b, int c) {
        return !(a == 0 || a == 10 || a == 127 || a >= 224                 // this network, private, loopback, multicast+
                || (a == 100 && b >= 64 && b <= 127)                          // carrier-grade NAT
                || (a == 169 && b == 254)                                     // link-local (cloud metadata)
                || (a == 172 && b >= 16 && b <= 31)                           // private
                || (a == 192 && b == 168)                                     // private
                || (a == 192 && b == 0 && (c == 0 || c == 2))                 // IETF protocol assignments, TEST-NET-1
                || (a == 198 && (b == 18 || b == 19))                         // benchmarking
                || (a == 198 && b == 51 && c == 100) || (a == 203 && b == 0 && c == 113)); // TEST-NET-2, -3
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
