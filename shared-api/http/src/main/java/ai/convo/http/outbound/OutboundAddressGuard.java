package ai.convo.http.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Refuses outbound requests that user-supplied URLs could aim at this service's own network (SSRF): only http and
 * https, and every address the host resolves to must be public: no loopback, private, link-local (cloud metadata),
 * carrier-grade NAT, unique-local, multicast or unspecified address. An operator may allow named hosts (tests allow a
 * loopback server). Check each redirect hop again: a public URL may redirect to a private one.
 */
public final class OutboundAddressGuard {

    /** The request was refused; the message says why and is safe to show to the user who gave the URL. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message);
        }
    }

    private final Set<String> allowedHosts;
    private final Function<String, InetAddress[]> resolver;

    public OutboundAddressGuard(Set<String> allowedHosts) {
        this(allowedHosts, OutboundAddressGuard::resolve);
    }

    OutboundAddressGuard(Set<String> allowedHosts, Function<String, InetAddress[]> resolver) {
        this.allowedHosts = allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        this.resolver = resolver;
    }

    /** Parses {@code url} and {@link #check(URI) checks} it. */
    public URI check(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new Refused("The URL is not valid: " + e.getMessage());
        }
        check(uri);
        return uri;
    }

    /** Returns the addresses checked; throws {@link Refused} when the target is not allowed. */
    public List<InetAddress> check(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Refused("Only http and https URLs are allowed; got '" + uri.getScheme() + "'.");
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new Refused("The URL has no host.");
        }
        if (uri.getUserInfo() != null) {
            throw new Refused("A URL with user information (user:password@) is not allowed.");
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses = resolver.apply(bare);
        if (allowedHosts.contains(bare.toLowerCase(Locale.ROOT))) {
            return Arrays.asList(addresses);
        }
        for (InetAddress address : addresses) {
            if (!isPublic(address)) {
                throw new Refused("The host '" + host + "' resolves to " + address.getHostAddress() + ", a private, "
                        + "loopback or link-local address; only public addresses can be called.");
            }
        }
        return Arrays.asList(addresses);
    }

    public static boolean isPublic(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 && !(first == 100 && second >= 64 && second < 128) // carrier-grade NAT 100.64/10
                    && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
                    && !(first == 198 && (second == 18 || second == 19)) // benchmarking
                    && first < 224; // multicast and reserved
        }
        if (address instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) {
                return false; // unique local fc00::/7
            }
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return isPublic(InetAddress.getByAddress(Arrays.copyOfRange(b, 12, 16)));
                } catch (UnknownHostException impossible) {
                    return false;
                }
            }
        }
        return true;
    }

    private static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new Refused("The host '" + host + "' cannot be resolved.");
        }
    }
}
