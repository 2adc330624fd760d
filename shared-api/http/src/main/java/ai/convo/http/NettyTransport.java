package ai.convo.http;

/**
 * Which Netty transport the services run on. On the sandboxed kernel (gVisor) these services run and are tested on,
 * the request of a newly opened connection was now and then never read, and its client waited forever: in 5 of 12
 * query-service suite runs on Netty's native epoll transport, in 2 of 10 on the JDK's NIO transport (README,
 * "Netty transport"). Whoever trusts their kernel can choose native again with {@code -Dreactor.netty.native=true}.
 */
public final class NettyTransport {

    public static final String PROPERTY = "reactor.netty.native";

    private NettyTransport() {
    }

    /** Call first in main, before anything loads Reactor Netty: it reads the property once. */
    public static void nioUnlessChosen() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "false");
        }
    }
}
