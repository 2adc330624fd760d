package ai.convo.launcher;

import java.net.InetSocketAddress;

import com.sun.net.httpserver.HttpServer;

/** Child-process stand-in for a service: serves /new/health on SERVER_PORT, or fails at once when told to. */
public final class ServiceStub {

    public static void main(String[] args) throws Exception {
        System.out.println("stub starting");
        if ("fail".equals(System.getenv("STUB_MODE"))) {
            System.out.println("stub failing on purpose");
            System.exit(3);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1",
                Integer.parseInt(System.getenv("SERVER_PORT"))), 0);
        server.createContext("/new/health", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("stub stopping")));
    }
}
