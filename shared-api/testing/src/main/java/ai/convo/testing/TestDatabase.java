package ai.convo.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import ai.convo.localpg.LocalPostgres;

/**
 * One PostgreSQL server per JVM (Testcontainers when Docker runs, else {@link LocalPostgres}), and a fresh database
 * per {@link #newDatabase()} call so test classes never see each other's data.
 */
public final class TestDatabase {

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static volatile Server server;

    private TestDatabase() {
    }

    public record Settings(String host, int port, String database, String username, String password) {

        public String jdbcUrl() {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }
    }

    /** Creates a new, empty, uniquely named database on the shared server. */
    public static Settings newDatabase() {
        FastTier.refuse("PostgreSQL");
        Server s = server();
        String name = "test_" + COUNTER.incrementAndGet() + "_"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        try (Connection c = DriverManager.getConnection(s.adminJdbcUrl(), s.username(), s.password());
             Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create test database " + name + ": " + e.getMessage(), e);
        }
        return new Settings(s.host(), s.port(), name, s.username(), s.password());
    }

    private static Server server() {
        Server s = server;
        if (s == null) {
            synchronized (TestDatabase.class) {
                s = server;
                if (s == null) {
                    s = DockerClientFactory.instance().isDockerAvailable() ? startContainer() : startLocal();
                    stopAtExit(s.stop());
                    server = s;
                }
            }
        }
        return s;
    }

    /**
     * The JVM runs its shutdown hooks side by side: a database stopped beside Spring's hook vanishes under contexts
     * still closing, whose processors then wait out connection timeouts and hold the JVM's exit past Surefire's 30 s.
     * With Spring Boot present the database stops after every application context has closed.
     */
    private static void stopAtExit(Runnable stop) {
        boolean spring;
        try {
            Class.forName("org.springframework.boot.SpringApplication", false, TestDatabase.class.getClassLoader());
            spring = true;
        } catch (ClassNotFoundException e) {
            spring = false;
        }
        if (spring) {
            AfterContexts.add(stop);
        } else {
            Runtime.getRuntime().addShutdownHook(new Thread(stop, "test-database-shutdown"));
        }
    }

    /** Loaded only where Spring Boot is on the class path. */
    private static final class AfterContexts {
        static void add(Runnable stop) {
            org.springframework.boot.SpringApplication.getShutdownHandlers().add(stop);
        }
    }

    @SuppressWarnings("resource")
    private static Server startContainer() {
        PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine")
                .withCommand("postgres", "-c", "fsync=off", "-c", "max_connections=200");
        container.start();
        return new Server(container.getHost(), container.getMappedPort(5432), container.getUsername(),
                container.getPassword(), container.getDatabaseName(), container::stop);
    }

    private static Server startLocal() {
        try {
            // World-traversable: as root the server runs unprivileged and must reach its data directory.
            Path dir = Files.createTempDirectory("convo-testdb-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            LocalPostgres pg = LocalPostgres.start(dir.resolve("data"), 0, false);
            return new Server(pg.host(), pg.port(), pg.user(), "", "postgres", () -> {
                pg.close();
                deleteTree(dir);
                if (!pg.dataDir().startsWith(dir)) {
                    deleteTree(pg.dataDir());
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: it is a temp directory
        }
    }

    private record Server(String host, int port, String username, String password, String adminDatabase,
                          Runnable stop) {

        String adminJdbcUrl() {
            return "jdbc:postgresql://" + host + ":" + port + "/" + adminDatabase;
        }
    }
}
