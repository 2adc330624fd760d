package ai.convo.http.web;

import java.net.InetSocketAddress;
import org.springframework.http.server.reactive.ServerHttpRequest;

/** The address of the client behind a request, for the refusal audit and the login guard. */
public final class ClientAddress {

    static final String FORWARDED_FOR = "X-Forwarded-For";

    private ClientAddress() {
    }

    /**
     * The client as the gateway in front reports it: the last X-Forwarded-For address, the one the gateway appended
     * (earlier ones are whatever the client sent, so a flood could not spread itself over made-up sources); without
     * the header, the connection's peer.
     */
    public static String of(ServerHttpRequest request) {
        String forwarded = request.getHeaders().getFirst(FORWARDED_FOR);
        if (forwarded != null) {
            String last = forwarded.substring(forwarded.lastIndexOf(',') + 1).trim();
            if (!last.isEmpty()) {
                return last;
            }
        }
        InetSocketAddress remote = request.getRemoteAddress();
        if (remote == null) {
            return null;
        }
        return remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
    }
}
