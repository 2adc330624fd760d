package ai.convo.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;

/** A tiny HTTP backend that records the last request (health checks aside) and echoes it back, tagged with its name. */
final class Backend implements AutoCloseable {

    record Request(String method, String uri, Map<String, List<String>> headers, String body) {
    }

    private final HttpServer server;
    final AtomicReference<Request> last = new AtomicReference<>();
    /** Requests received, health checks left out. */
    final AtomicInteger count = new AtomicInteger();

    Backend(String name, Duration delay) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders(), body);
            // the gateway's health checks (every second) are left out: a test reads back what it sent itself
            if (!request.uri().startsWith("/new/health")) {
                last.set(request);
                count.incrementAndGet();
            }
            sleep(delay);
            byte[] out = (name + " " + request.method() + " " + request.uri() + " " + body)
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-Backend", name);
            exchange.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
            exchange.getResponseHeaders().add("X-Event-Position", "42");
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            boolean head = "HEAD".equals(request.method());
            exchange.sendResponseHeaders(200, head ? -1 : out.length);
            if (!head) {
                exchange.getResponseBody().write(out);
            }
            exchange.close();
        });
        server.start();
    }

    String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void sleep(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
