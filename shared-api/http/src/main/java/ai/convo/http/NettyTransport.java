package ai.convo.http;

/**
 * Which Netty transport the services run on. Netty's native epoll transport, on the sandboxed kernel (gVisor) these
 * services run and are tested on, now and then never read the request of a freshly accepted connection: the client
 * waited forever. The JDK's NIO transport did not (see README, "Netty transport"). Whoever knows their kernel
 * can choose native again with {@code -Dreactor.netty.native=true}.
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
