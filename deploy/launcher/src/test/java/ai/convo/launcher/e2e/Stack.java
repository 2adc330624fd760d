package ai.convo.launcher.e2e;

import ai.convo.launcher.ServiceProcess;
import ai.convo.testing.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The whole system as it is deployed: the gateway and both services as processes, on one PostgreSQL. */
final class Stack implements AutoCloseable {

    static final String ADMIN_EMAIL = "e2e-admin@example.com";
    static final String ADMIN_PASSWORD = "e2e-admin-password";
    static final String ADMIN_KEY = "e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0";

    private static final String VERSION = "0.1.0-SNAPSHOT";
    private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-Xmx384m", "-Dreactor.netty.ioWorkerCount=2");

    final TestDatabase.Settings db = TestDatabase.newDatabase();
    final Path home = Path.of(System.getProperty("convo.home", "../.."));
    final Path logs;
    final int commandPort = freePort();
    final int queryPort = freePort();
    final int gatewayPort = freePort();
    ServiceProcess command;
    ServiceProcess query;
    ServiceProcess gateway;

    Stack() throws IOException {
        logs = Files.createDirectories(home.resolve("deploy/launcher/target/e2e-logs"));
        command = start("command-service", "command-service/target/command-service-" + VERSION + "-exec.jar", commandPort);
        query = start("query-service", "query-service/target/query-service-" + VERSION + "-exec.jar", queryPort);
        command.awaitHealthy(health(commandPort), Duration.ofSeconds(120));
        query.awaitHealthy(health(queryPort), Duration.ofSeconds(120));
        Map<String, String> env = new HashMap<>();
        env.put("SERVER_PORT", Integer.toString(gatewayPort));
        env.put("COMMAND_SERVICE_URI", "http://127.0.0.1:" + commandPort);
        env.put("QUERY_SERVICE_URI", "http://127.0.0.1:" + queryPort);
        gateway = ServiceProcess.start("gateway", home.resolve("deploy/gateway/target/gateway-" + VERSION + "-exec.jar"),
                env, JVM, logs.resolve("gateway.log"));
        gateway.awaitHealthy(health(gatewayPort), Duration.ofSeconds(120));
    }

    String baseUrl() {
        return "http://127.0.0.1:" + gatewayPort + "/new";
    }

    ServiceProcess startQuery() throws IOException {
        query = start("query-service", "query-service/target/query-service-" + VERSION + "-exec.jar", queryPort);
        query.awaitHealthy(health(queryPort), Duration.ofSeconds(120));
        return query;
    }

    private ServiceProcess start(String name, String jar, int port) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("SERVER_PORT", Integer.toString(port));
        env.put("DB_HOST", db.host());
        env.put("DB_PORT", Integer.toString(db.port()));
        env.put("DB_NAME", db.database());
        env.put("DB_USERNAME", db.username());
        env.put("DB_PASSWORD", db.password() == null ? "" : db.password());
        env.put("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL);
        env.put("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
        env.put("BOOTSTRAP_API_KEY", ADMIN_KEY);
        env.put("AXONIQ_UPDATE_CHECKER_DISABLED", "true");
        return ServiceProcess.start(name, home.resolve(jar), env, JVM, logs.resolve(name + ".log"));
    }

    private static URI health(int port) {
        return URI.create("http://127.0.0.1:" + port + "/new/health");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        for (ServiceProcess process : new ServiceProcess[] {gateway, query, command}) {
            if (process != null) {
                process.stop();
            }
        }
    }
}
