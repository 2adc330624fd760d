package ai.convo.launcher;

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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import ai.convo.localpg.LocalPostgres;

/**
 * Runs the whole platform locally: PostgreSQL (embedded unless DB_HOST is set), the command and query services, and
 * the gateway in front of them, each service in its own JVM. Ctrl-C stops everything in reverse order.
 */
public final class Launcher {

    private static final List<String> JVM_ARGS = List.of("-XX:+UseSerialGC", "-Xmx512m",
            "-Dreactor.netty.ioWorkerCount=2");
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(120);
    private static final String VERSION = Objects.requireNonNullElse(
            Launcher.class.getPackage().getImplementationVersion(), "0.1.0-SNAPSHOT");

    private final LauncherSettings settings;
    private final Map<String, String> env;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CompletableFuture<ServiceProcess> unexpectedExit = new CompletableFuture<>();
    private volatile LocalPostgres embeddedDatabase;
    private volatile LocalPostgres embeddedReplica;
    private volatile ServiceProcess command;
    private volatile ServiceProcess query;
    private volatile ServiceProcess gateway;

    Launcher(LauncherSettings settings, Map<String, String> env) {
        this.settings = settings;
        this.env = env;
    }

    public static void main(String[] args) {
        long startedAt = System.nanoTime();
        System.setProperty("java.util.logging.SimpleFormatter.format", "[%4$s] %5$s%6$s%n");
        Launcher launcher;
        try {
            launcher = new Launcher(LauncherSettings.from(System.getenv(), System.getProperty("convo.home")),
                    System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(launcher::shutdown, "launcher-shutdown"));
        if (args.length > 0 && args[0].equals("rebuild")) {
            int code;
            try {
                code = launcher.rebuild(List.of(args).subList(1, args.length));
            } catch (Exception e) {
                System.err.println("Rebuild failed: " + e.getMessage());
                code = 1;
            }
            System.exit(code);
            return;
        }
        try {
            launcher.start(startedAt);
        } catch (Exception e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            System.err.println();
            System.err.println("Startup failed: " + cause.getMessage());
            System.exit(1);
        }
        ServiceProcess dead = launcher.unexpectedExit.join();
        System.err.println();
        System.err.println(dead.name() + " exited unexpectedly (code " + dead.exitCode() + "); shutting down. Last lines of "
                + dead.logFile() + ":");
        System.err.println(dead.logTail(30));
        System.exit(1);
    }

    void start(long startedAt) throws IOException {
        Files.createDirectories(settings.dataDir());
        requireFreePort(settings.commandPort(), "command-service", "COMMAND_PORT");
        requireFreePort(settings.queryPort(), "query-service", "QUERY_PORT");
        requireFreePort(settings.gatewayPort(), "gateway", "PORT");

        LauncherSettings.Database database = settings.externalDatabase().orElseGet(this::startEmbeddedDatabase);
        BootstrapCredentials credentials = BootstrapCredentials.resolve(env, settings.dataDir().resolve("bootstrap.env"));
        Map<String, String> common = new HashMap<>(database.asEnv());
        common.putAll(credentials.asEnv());
        common.put("AXONIQ_UPDATE_CHECKER_DISABLED", "true");

        command = startService("command-service", serviceJar("command-service"), settings.commandPort(), common);
        Map<String, String> queryEnv = new HashMap<>(common);
        if (embeddedReplica != null) {
            queryEnv.put("DB_READ_HOST", embeddedReplica.host());
            queryEnv.put("DB_READ_PORT", Integer.toString(embeddedReplica.port()));
        }
        query = startService("query-service", serviceJar("query-service"), settings.queryPort(), queryEnv);
        awaitHealthy(Map.of(command, settings.commandPort(), query, settings.queryPort()));

        Map<String, String> gatewayEnv = new HashMap<>(common);
        gatewayEnv.put("COMMAND_SERVICE_URI", "http://127.0.0.1:" + settings.commandPort());
        gatewayEnv.put("QUERY_SERVICE_URI", "http://127.0.0.1:" + settings.queryPort());
        gateway = startService("gateway", settings.root().resolve("deploy/gateway/target/gateway-" + VERSION + "-exec.jar"),
                settings.gatewayPort(), gatewayEnv);
        awaitHealthy(Map.of(gateway, settings.gatewayPort()));

        Stream.of(command, query, gateway).forEach(this::watch);
        printSummary(database, credentials, (System.nanoTime() - startedAt) / 1_000_000);
    }

    /**
     * {@code rebuild [all|projection,...] [--require-identical]}: for a stopped system, rebuilds projections from the
     * event log with the query service alone (the same rebuild as the management API's), then stops. Exit code 0 when
     * the new tables are in place.
     */
    int rebuild(List<String> args) throws IOException, InterruptedException {
        String projections = args.stream().filter(a -> !a.startsWith("--")).findFirst().orElse("all");
        boolean identical = args.contains("--require-identical");
        Files.createDirectories(settings.dataDir());
        LauncherSettings.Database database = settings.externalDatabase().orElseGet(this::startEmbeddedDatabase);
        Map<String, String> env = new HashMap<>(database.asEnv());
        env.putAll(BootstrapCredentials.resolve(this.env, settings.dataDir().resolve("bootstrap.env")).asEnv());
        env.put("AXONIQ_UPDATE_CHECKER_DISABLED", "true");
        env.put("SERVER_PORT", "0");
        env.put("MANAGEMENT_PORT", "0");
        env.put("APP_REBUILD_NOW", projections);
        env.put("APP_REBUILD_REQUIRE_IDENTICAL", Boolean.toString(identical));
        query = ServiceProcess.start("query-service", serviceJar("query-service"), env, JVM_ARGS,
                settings.logDir().resolve("query-service-rebuild.log"));
        System.out.println("Rebuilding " + projections + " (log " + query.logFile() + ")");
        int code = query.onExit().join().exitCode();
        query.logTail(400).lines().filter(line -> line.startsWith("REBUILD")).forEach(System.out::println);
        if (code != 0 && code != 1 && code != 2) {
            System.err.println(query.logTail(30));
        }
        return code;
    }

    /** Stops the gateway, then both services, then the embedded database. Idempotent. */
    void shutdown() {
        if (!stopping.compareAndSet(false, true)) {
            return;
        }
        System.out.println("Stopping...");
        if (gateway != null) {
            gateway.stop();
        }
        List<Thread> stoppers = new ArrayList<>();
        for (ServiceProcess service : new ServiceProcess[] {command, query}) {
            if (service != null) {
                Thread stopper = new Thread(service::stop, "stop-" + service.name());
                stopper.start();
                stoppers.add(stopper);
            }
        }
        for (Thread stopper : stoppers) {
            try {
                stopper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (embeddedReplica != null) {
            embeddedReplica.close();
        }
        if (embeddedDatabase != null) {
            embeddedDatabase.close();
        }
        System.out.println("Stopped.");
    }

    private LauncherSettings.Database startEmbeddedDatabase() {
        LocalPostgres pg = LocalPostgres.start(settings.dataDir().resolve("postgres"), settings.embeddedDbPort(), true);
        embeddedDatabase = pg;
        pg.createDatabaseIfMissing("convo");
        if (settings.embeddedReadReplica()) {
            // A streaming replica the query service reads projections from (EMBEDDED_DB_READ_REPLICA=true).
            embeddedReplica = LocalPostgres.startStandby(pg, settings.dataDir().resolve("postgres-replica"),
                    settings.embeddedDbPort() + 1, true);
        }
        return new LauncherSettings.Database(pg.host(), pg.port(), "convo", pg.user(), "");
    }

    private Path serviceJar(String module) {
        return settings.root().resolve(module + "/target/" + module + "-" + VERSION + "-exec.jar");
    }

    private ServiceProcess startService(String name, Path jar, int port, Map<String, String> common)
            throws IOException {
        Map<String, String> serviceEnv = new HashMap<>(common);
        serviceEnv.put("SERVER_PORT", Integer.toString(port));
        // health, readiness and metrics: the service's port + 1000 (9081, 9082 by default)
        serviceEnv.put("MANAGEMENT_PORT", Integer.toString(port + 1000));
        ServiceProcess service = ServiceProcess.start(name, jar, serviceEnv, JVM_ARGS,
                settings.logDir().resolve(name + ".log"));
        System.out.println("Started " + service + " on port " + port + " (management " + (port + 1000) + "), log "
                + service.logFile());
        return service;
    }

    /** Waits for all services at once and fails as soon as any of them fails. */
    private static void awaitHealthy(Map<ServiceProcess, Integer> servicePorts) {
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        servicePorts.forEach((service, port) -> {
            CompletableFuture<Void> wait = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    service.awaitHealthy(URI.create("http://127.0.0.1:" + port + "/new/health"), HEALTH_TIMEOUT);
                    wait.complete(null);
                } catch (RuntimeException e) {
                    wait.completeExceptionally(e);
                    firstFailure.completeExceptionally(e);
                }
            }, "await-" + service.name());
            waiter.setDaemon(true);
            waiter.start();
            waits.add(wait);
        });
        CompletableFuture.anyOf(CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)), firstFailure).join();
    }

    private void watch(ServiceProcess service) {
        service.onExit().thenRunAsync(() -> {
            // Ctrl-C reaches the children too; give our shutdown hook a moment to claim the exit as expected.
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!stopping.get()) {
                unexpectedExit.complete(service);
            }
        });
    }

    private static void requireFreePort(int port, String service, String variable) {
        try (ServerSocket ignored = new ServerSocket(port)) {
            // free: the service can bind it
        } catch (IOException e) {
            throw new IllegalStateException("Port " + port + " for " + service + " is already in use (an earlier run"
                    + " still alive?). Stop it or set " + variable + " to another port.");
        }
    }

    private void printSummary(LauncherSettings.Database database, BootstrapCredentials credentials, long millis) {
        String origin = "http://localhost:" + settings.gatewayPort();
        String baseUrl = origin + "/new";
        String db = embeddedDatabase != null
                ? "embedded PostgreSQL on " + database.host() + ":" + database.port() + ", data in "
                        + embeddedDatabase.dataDir()
                : "external PostgreSQL " + database.host() + ":" + database.port() + "/" + database.name();
        if (embeddedReplica != null) {
            db += "; reads from its streaming replica on " + embeddedReplica.host() + ":" + embeddedReplica.port();
        }
        System.out.println();
        System.out.println("Convo platform is up (started in " + millis + " ms)");
        System.out.println("  Base URL:        " + baseUrl + " (for curl and HTTP clients)");
        // The official client adds /new to every path itself: given the base URL it would ask for /new/new/...
        System.out.println("  Official client: new RestAPIClient({ baseUrl: \"" + origin + "\" }), "
                + "then setCredentials({ type: \"ApiKey\", apiKey: \"" + credentials.apiKey() + "\" })");
        System.out.println("  Admin e-mail:    " + credentials.adminEmail());
        System.out.println("  Admin password:  " + credentials.adminPassword());
        System.out.println("  API key:         " + credentials.apiKey());
        System.out.println("  Try:             curl -H \"X-API-Key: " + credentials.apiKey() + "\" " + baseUrl
                + "/v2.0/projects");
        System.out.println("  Database:        " + db);
        System.out.println("  Data:            " + settings.dataDir() + " (credentials in "
                + settings.dataDir().resolve("bootstrap.env") + ")");
        System.out.println("  Logs:            " + settings.logDir() + "/{command-service,query-service,gateway}.log");
        System.out.println();
        System.out.println("Press Ctrl-C to stop");
    }
}
