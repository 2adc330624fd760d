package ai.convo.launcher.e2e;

import ai.convo.launcher.ServiceProcess;
import ai.convo.localpg.LocalPostgres;
import ai.convo.testing.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole system as it is deployed: command services, query services and gateways as processes, on one PostgreSQL
 * or (with a read replica) on a primary and a streaming standby of its own that query services read projections from.
 * Unless gateways front every replica, gateway i fronts command i and query i (wrapping around).
 */
final class Stack implements AutoCloseable {

    /**
     * How many of each, whether query services read from a streaming replica, whether each gateway fronts all, and
     * whether the stack runs a PostgreSQL of its own (always with a read replica; else it may share the tests' one).
     */
    record Layout(int commands, int queries, int gateways, boolean readReplica, boolean gatewaysFrontAll,
                  Map<String, String> queryEnv, boolean ownDatabase) {

        Layout(int commands, int queries, int gateways) {
            this(commands, queries, gateways, false, false, Map.of());
        }

        Layout(int commands, int queries, int gateways, boolean readReplica, boolean gatewaysFrontAll,
               Map<String, String> queryEnv) {
            this(commands, queries, gateways, readReplica, gatewaysFrontAll, queryEnv, readReplica);
        }
    }

    static final String ADMIN_EMAIL = "e2e-admin@example.com";
    static final String ADMIN_PASSWORD = "e2e-admin-password";
    static final String ADMIN_KEY = "e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0";

    private static final String VERSION = "0.1.0-SNAPSHOT";
    private static final String COMMAND_JAR = "command-service/target/command-service-" + VERSION + "-exec.jar";
    private static final String QUERY_JAR = "query-service/target/query-service-" + VERSION + "-exec.jar";
    private static final List<String> JVM = jvm();

    /**
     * C1 only: up to nine JVMs start at once on two cores, and C2's compiles cost them more than its faster code gives
     * back in a test this short (read-your-writes 117 s instead of 185-210 s). {@code -De2e.jvm.extra} adds flags.
     */
    private static List<String> jvm() {
        return jvm(true);
    }

    /**
     * The production JIT (C1 and C2), for a stack whose test measures throughput over a minute or more: there C1-only
     * code measures the test's shortcut, not the system.
     */
    static List<String> productionJit() {
        return jvm(false);
    }

    private static List<String> jvm(boolean c1Only) {
        List<String> args = new ArrayList<>(List.of("-XX:+UseSerialGC", "-Xmx384m", "-Dreactor.netty.ioWorkerCount=2"));
        if (c1Only) {
            args.add("-XX:TieredStopAtLevel=1");
        }
        String extra = System.getProperty("e2e.jvm.extra", "");
        if (!extra.isBlank()) {
            args.addAll(List.of(extra.trim().split("\\s+")));
        }
        return List.copyOf(args);
    }

    final TestDatabase.Settings db;
    /** With a read replica: the primary and its standby, owned by this stack. */
    LocalPostgres primary;
    final LocalPostgres standby;
    private final Path pgDirectory;
    private final Map<String, String> queryEnv;
    final Path home = Path.of(System.getProperty("convo.home", "../.."));
    final Path logs;
    final List<Integer> commandPorts = new ArrayList<>();
    final List<Integer> queryPorts = new ArrayList<>();
    final List<Integer> gatewayPorts = new ArrayList<>();
    final List<ServiceProcess> commands = new ArrayList<>();
    final List<ServiceProcess> queries = new ArrayList<>();
    final List<ServiceProcess> gateways = new ArrayList<>();
    /** The first of each, for tests of one of each. */
    final int commandPort;
    final int queryPort;
    ServiceProcess query;
    private final Layout layout;
    private final List<String> jvm;

    Stack() throws IOException {
        this(1, 1, 1);
    }

    Stack(int commandCount, int queryCount, int gatewayCount) throws IOException {
        this(new Layout(commandCount, queryCount, gatewayCount));
    }

    Stack(Layout layout) throws IOException {
        this(layout, JVM);
    }

    Stack(Layout layout, List<String> jvm) throws IOException {
        this.jvm = jvm;
        int commandCount = layout.commands();
        int queryCount = layout.queries();
        int gatewayCount = layout.gateways();
        logs = Files.createDirectories(home.resolve("deploy/launcher/target/e2e-logs"));
        queryEnv = new HashMap<>(layout.queryEnv());
        this.layout = layout;
        if (layout.ownDatabase() || layout.readReplica()) {
            Path pg = pgDirectory = Files.createTempDirectory(Files.createDirectories(home.resolve("deploy/launcher/target")), "e2e-pg");
            Files.setPosixFilePermissions(pg, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            primary = LocalPostgres.start(pg.resolve("primary"), 0, false);
            primary.createDatabaseIfMissing("convo");
            db = new TestDatabase.Settings(primary.host(), primary.port(), "convo", primary.user(), "");
            if (layout.readReplica()) {
                standby = LocalPostgres.startStandby(primary, pg.resolve("standby"), 0, false);
                queryEnv.put("DB_READ_HOST", standby.host());
                queryEnv.put("DB_READ_PORT", Integer.toString(standby.port()));
            } else {
                standby = null;
            }
        } else {
            primary = null;
            standby = null;
            pgDirectory = null;
            db = TestDatabase.newDatabase();
        }
        // A stack that fails to start stops what it started: the test class never gets it to close.
        try {
            for (int i = 0; i < commandCount; i++) {
                commandPorts.add(freePort());
                commands.add(start("command-service-" + i, COMMAND_JAR, commandPorts.get(i), Map.of()));
            }
            for (int i = 0; i < queryCount; i++) {
                queryPorts.add(freePort());
                queries.add(start("query-service-" + i, QUERY_JAR, queryPorts.get(i), queryEnv));
            }
            for (int i = 0; i < commandCount; i++) {
                commands.get(i).awaitHealthy(health(commandPorts.get(i)), Duration.ofSeconds(120));
            }
            for (int i = 0; i < queryCount; i++) {
                queries.get(i).awaitHealthy(ready(queryPorts.get(i)), Duration.ofSeconds(120));
            }
            for (int i = 0; i < gatewayCount; i++) {
                gatewayPorts.add(freePort());
                gateways.add(gatewayProcess(i));
            }
            for (int i = 0; i < gatewayCount; i++) {
                gateways.get(i).awaitHealthy(health(gatewayPorts.get(i)), Duration.ofSeconds(120));
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        commandPort = commandPorts.get(0);
        queryPort = queryPorts.get(0);
        query = queries.get(0);
    }

    String baseUrl() {
        return baseUrl(0);
    }

    String baseUrl(int gateway) {
        return "http://127.0.0.1:" + gatewayPorts.get(gateway) + "/new";
    }

    /** Restarts the first query service after a kill; answers once it is ready (caught up with the log). */
    ServiceProcess startQuery() throws IOException {
        return startQuery(0);
    }

    ServiceProcess startQuery(int index) throws IOException {
        ServiceProcess started = start("query-service-" + index, QUERY_JAR, queryPorts.get(index), queryEnv);
        started.awaitHealthy(ready(queryPorts.get(index)), Duration.ofSeconds(120));
        queries.set(index, started);
        if (index == 0) {
            query = started;
        }
        return started;
    }

    /**
     * Runs the query service once as a command (e.g. {@code APP_REBUILD_NOW}), with the stack's settings and a port of
     * its own; it exits by itself.
     */
    ServiceProcess runQueryCommand(Map<String, String> extra) throws IOException {
        Map<String, String> env = new HashMap<>(queryEnv);
        env.putAll(extra);
        return start("query-service-command", QUERY_JAR, 0, env);
    }

    /** Restarts a command service after a kill; answers once it is healthy. */
    ServiceProcess startCommand(int index) throws IOException {
        ServiceProcess started = start("command-service-" + index, COMMAND_JAR, commandPorts.get(index), Map.of());
        started.awaitHealthy(health(commandPorts.get(index)), Duration.ofSeconds(120));
        commands.set(index, started);
        return started;
    }

    /** Restarts a gateway after a kill; answers once it is healthy. */
    ServiceProcess startGateway(int index) throws IOException {
        ServiceProcess started = gatewayProcess(index);
        started.awaitHealthy(health(gatewayPorts.get(index)), Duration.ofSeconds(120));
        gateways.set(index, started);
        return started;
    }

    private ServiceProcess gatewayProcess(int index) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("SERVER_PORT", Integer.toString(gatewayPorts.get(index)));
        env.put("MANAGEMENT_PORT", "0");
        env.put("COMMAND_SERVICE_URI", layout.gatewaysFrontAll() ? uris(commandPorts)
                : "http://127.0.0.1:" + commandPorts.get(index % commandPorts.size()));
        env.put("QUERY_SERVICE_URI", layout.gatewaysFrontAll() ? uris(queryPorts)
                : "http://127.0.0.1:" + queryPorts.get(index % queryPorts.size()));
        return ServiceProcess.start("gateway-" + index,
                home.resolve("deploy/gateway/target/gateway-" + VERSION + "-exec.jar"), env, jvm,
                logs.resolve("gateway-" + index + ".log"));
    }

    /** Stops the stack's own PostgreSQL (fast shutdown: open transactions roll back); see {@link #startDatabase}. */
    void stopDatabase() {
        primary.close();
    }

    /** Starts the stack's own PostgreSQL again, on its port and data directory. */
    void startDatabase() {
        primary = LocalPostgres.start(pgDirectory.resolve("primary"), primary.port(), false);
    }

    private static String uris(List<Integer> ports) {
        return String.join(",", ports.stream().map(port -> "http://127.0.0.1:" + port).toList());
    }

    private ServiceProcess start(String name, String jar, int port, Map<String, String> extra) throws IOException {
        Map<String, String> env = new HashMap<>(extra);
        env.put("SERVER_PORT", Integer.toString(port));
        // several replicas of a service on one host: a management port of its own each
        env.put("MANAGEMENT_PORT", "0");
        env.put("DB_HOST", db.host());
        env.put("DB_PORT", Integer.toString(db.port()));
        env.put("DB_NAME", db.database());
        env.put("DB_USERNAME", db.username());
        env.put("DB_PASSWORD", db.password() == null ? "" : db.password());
        env.put("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL);
        env.put("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
        env.put("BOOTSTRAP_API_KEY", ADMIN_KEY);
        env.put("AXONIQ_UPDATE_CHECKER_DISABLED", "true");
        return ServiceProcess.start(name, home.resolve(jar), env, jvm, logs.resolve(name + ".log"));
    }

    private static URI health(int port) {
        return URI.create("http://127.0.0.1:" + port + "/new/health");
    }

    /** A query service is ready once its projections have caught up with the log as it stood when it started. */
    private static URI ready(int port) {
        return URI.create("http://127.0.0.1:" + port + "/new/health/ready");
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
        List<ServiceProcess> all = new ArrayList<>(gateways);
        all.addAll(queries);
        all.addAll(commands);
        for (ServiceProcess process : all) {
            if (process != null) {
                process.stop();
            }
        }
        if (standby != null) {
            standby.close();
        }
        if (primary != null) {
            primary.close();
        }
        if (pgDirectory != null) {
            try (var files = Files.walk(pgDirectory)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                System.err.println("Could not remove " + pgDirectory + ": " + e);
            }
        }
    }
}
