package ai.convo.localpg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server (zonky binaries) run as a detached child process on 127.0.0.1, trust auth, user
 * {@code postgres}. When running as root, the server runs as uid/gid 65534 because PostgreSQL refuses root.
 */
public final class LocalPostgres implements AutoCloseable {

    static final int UNPRIVILEGED_ID = 65534;
    private static final System.Logger LOG = System.getLogger(LocalPostgres.class.getName());
    private static final String HOST = "127.0.0.1";
    private static final String USER = "postgres";

    private final Path binDir;
    private final Path dataDir;
    private final int port;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocalPostgres(Path binDir, Path dataDir, int port) {
        this.binDir = binDir;
        this.dataDir = dataDir;
        this.port = port;
    }

    /**
     * Starts a server on {@code dataDir}, creating the cluster on first use and reusing it afterwards.
     *
     * @param port    0 picks a free port
     * @param durable false turns fsync off (tests); true keeps it on (data you want to keep)
     */
    public static LocalPostgres start(Path dataDir, int port, boolean durable) {
        // The guard of the fast test tier (./mvnw test, root pom.xml); ai.convo.testing.FastTier says the same.
        if ("fast".equals(System.getProperty("convo.test.tier"))) {
            throw new IllegalStateException("This test starts PostgreSQL, but ./mvnw test runs only tests that start"
                    + " neither Spring nor PostgreSQL: tag the test class (or its base class) @Tag(\"integration\")"
                    + " so that ./mvnw verify runs it.");
        }
        boolean root = Privileges.isRoot();
        Path bin = Binaries.install(root).resolve("bin");
        Path data = DataDirectory.prepare(dataDir.toAbsolutePath().normalize(), root);
        Commands commands = new Commands(bin, data, root);
        if (!Files.exists(data.resolve("PG_VERSION"))) {
            // Builtin C.UTF-8 locale: same behaviour on every OS, and upper()/lower() still handle non-ASCII text.
            List<String> initdb = new ArrayList<>(List.of(commands.tool("initdb"), "-A", "trust", "-U", USER,
                    "-D", data.toString(), "-E", "UTF-8", "--locale=C", "--locale-provider=builtin",
                    "--builtin-locale=C.UTF-8"));
            if (!durable) {
                initdb.add("--no-sync");
            }
            commands.run(initdb, 120);
        }
        commands.clearStalePid();
        // An auto-picked port can be taken between probing and binding, so retry a couple of times.
        int attempts = port == 0 ? 3 : 1;
        IllegalStateException failure = null;
        for (int i = 0; i < attempts; i++) {
            int actualPort = port == 0 ? freePort() : port;
            try {
                commands.start(actualPort, durable);
                LOG.log(System.Logger.Level.INFO, "PostgreSQL listening on {0}:{1,number,#}, data in {2}",
                        HOST, actualPort, data);
                return new LocalPostgres(bin, data, actualPort);
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }

    /**
     * Starts a hot standby of {@code primary} on {@code dataDir}: streaming replication over a physical slot (so the
     * primary keeps the WAL it has not sent), read-only queries allowed, {@code hot_standby_feedback} on so replay does
     * not cancel a long read. The first start takes a base backup with pg_backup_start/stop and a file copy (the
     * bundled binaries have no pg_basebackup); later starts reuse the standby's directory and catch up from the slot.
     */
    public static LocalPostgres startStandby(LocalPostgres primary, Path dataDir, int port, boolean durable) {
        boolean root = Privileges.isRoot();
        Path bin = Binaries.install(root).resolve("bin");
        Path data = DataDirectory.prepare(dataDir.toAbsolutePath().normalize(), root);
        Commands commands = new Commands(bin, data, root);
        if (!Files.exists(data.resolve("PG_VERSION"))) {
            String slot = "convo_standby_" + DataDirectory.shortHash(data.toString());
            primary.baseBackup(data, slot);
            try {
                Files.writeString(data.resolve("standby.signal"), "");
                Files.writeString(data.resolve("postgresql.auto.conf"), "\n# A streaming standby (LocalPostgres)\n"
                        + "primary_conninfo = 'host=" + HOST + " port=" + primary.port() + " user=" + USER
                        + " application_name=" + slot + "'\n"
                        + "primary_slot_name = '" + slot + "'\n"
                        + "hot_standby_feedback = on\n", StandardOpenOption.APPEND);
                if (root) {
                    Privileges.chownTreeToUnprivileged(data);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Could not configure the standby in " + data, e);
            }
        }
        commands.clearStalePid();
        int actualPort = port == 0 ? freePort() : port;
        commands.start(actualPort, durable);
        LOG.log(System.Logger.Level.INFO, "PostgreSQL standby of {0,number,#} listening on {1}:{2,number,#}, data in {3}",
                primary.port(), HOST, actualPort, data);
        return new LocalPostgres(bin, data, actualPort);
    }

    /** pg_backup_start, a copy of the data directory without what a backup leaves out, pg_backup_stop's label. */
    private void baseBackup(Path target, String slot) {
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, "");
             Statement statement = c.createStatement()) {
            statement.execute("SELECT pg_create_physical_replication_slot('" + slot + "', true) WHERE NOT EXISTS "
                    + "(SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "')");
            statement.execute("SELECT pg_backup_start('" + slot + "', true)");
            copyForBackup(dataDir, target);
            try (ResultSet stop = statement.executeQuery("SELECT labelfile, spcmapfile FROM pg_backup_stop(false)")) {
                stop.next();
                Files.writeString(target.resolve("backup_label"), stop.getString("labelfile"));
                String tablespaces = stop.getString("spcmapfile");
                if (tablespaces != null && !tablespaces.isEmpty()) {
                    Files.writeString(target.resolve("tablespace_map"), tablespaces);
                }
            }
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("Could not take a base backup of " + this + ": " + e.getMessage(), e);
        }
    }

    /** Directories whose contents a base backup leaves out (the directories themselves must exist). */
    private static final java.util.Set<String> EMPTIED = java.util.Set.of("pg_wal", "pg_replslot", "pg_dynshmem",
            "pg_notify", "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans");
    private static final java.util.Set<String> LEFT_OUT = java.util.Set.of("postmaster.pid", "postmaster.opts",
            "postgres.log", "standby.signal", "recovery.signal", "backup_label", "tablespace_map");

    private static void copyForBackup(Path source, Path target) throws IOException {
        Files.walkFileTree(source, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes attrs)
                    throws IOException {
                Path copy = target.resolve(source.relativize(dir).toString());
                Files.createDirectories(copy);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
                if (!dir.equals(source) && EMPTIED.contains(source.relativize(dir).toString())) {
                    if (dir.getFileName().toString().equals("pg_wal")) {
                        Files.createDirectories(copy.resolve("archive_status"));
                    }
                    return java.nio.file.FileVisitResult.SKIP_SUBTREE;
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs)
                    throws IOException {
                String name = file.getFileName().toString();
                boolean top = file.getParent().equals(source);
                if ((top && LEFT_OUT.contains(name)) || name.startsWith("pgsql_tmp")) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
                try {
                    Files.copy(file, target.resolve(source.relativize(file).toString()),
                            java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                } catch (java.nio.file.NoSuchFileException gone) {
                    // Removed while copying (a dropped relation, a recycled file): WAL replay recreates what matters.
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public String user() {
        return USER;
    }

    /** Where the cluster actually lives; differs from the requested directory when root had to fall back. */
    public Path dataDir() {
        return dataDir;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + database;
    }

    public void createDatabaseIfMissing(String name) {
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), USER, "")) {
            try (PreparedStatement exists = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                exists.setString(1, name);
                try (ResultSet rs = exists.executeQuery()) {
                    if (rs.next()) {
                        return;
                    }
                }
            }
            try (Statement create = c.createStatement()) {
                create.execute("CREATE DATABASE \"" + name.replace("\"", "\"\"") + "\"");
            }
        } catch (SQLException e) {
            // 42P04 duplicate_database, 23505 unique_violation: someone else created it concurrently.
            if (!"42P04".equals(e.getSQLState()) && !"23505".equals(e.getSQLState())) {
                throw new IllegalStateException("Could not create database " + name + ": " + e.getMessage(), e);
            }
        }
    }

    /** Stops the server (fast shutdown: open transactions are rolled back). Safe to call more than once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            new Commands(binDir, dataDir, Privileges.isRoot()).stop();
        }
    }

    @Override
    public String toString() {
        return "LocalPostgres[" + HOST + ":" + port + ", " + dataDir + "]";
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs initdb/pg_ctl, dropping privileges when root. */
    private record Commands(Path bin, Path data, boolean root) {

        String tool(String name) {
            String exe = System.getProperty("os.name").toLowerCase().startsWith("windows") ? ".exe" : "";
            return bin.resolve(name + exe).toString();
        }

        Path logFile() {
            return data.resolve("postgres.log");
        }

        void start(int port, boolean durable) {
            String options = "-p " + port + " -h " + HOST + (durable ? "" : " -F")
                    // No unix socket: avoids clashes and permission trouble in /tmp; clients use TCP.
                    + " -c unix_socket_directories='' -c max_connections=200";
            try {
                run(List.of(tool("pg_ctl"), "-D", data.toString(), "-l", logFile().toString(), "-o", options,
                        "-w", "-t", "120", "start"), 150);
            } catch (IllegalStateException e) {
                throw new IllegalStateException(e.getMessage() + "\n--- " + logFile() + " (tail) ---\n" + logTail(),
                        e);
            }
        }

        void stop() {
            if (!Files.exists(data.resolve("postmaster.pid"))) {
                return;
            }
            try {
                run(List.of(tool("pg_ctl"), "-D", data.toString(), "-m", "fast", "-w", "-t", "60", "stop"), 90);
            } catch (IllegalStateException e) {
                LOG.log(System.Logger.Level.WARNING, "Stopping PostgreSQL failed: {0}", e.getMessage());
            }
        }

        /**
         * A killed run leaves postmaster.pid behind. If a postgres still runs from it (our parent JVM was killed,
         * postgres is detached and survived), stop it cleanly; if the pid is dead or was recycled, drop the file.
         */
        void clearStalePid() {
            Path pidFile = data.resolve("postmaster.pid");
            if (!Files.exists(pidFile)) {
                return;
            }
            long pid;
            try (Stream<String> lines = Files.lines(pidFile)) {
                pid = Long.parseLong(lines.findFirst().orElse("").trim());
            } catch (IOException | NumberFormatException e) {
                deleteQuietly(pidFile);
                return;
            }
            Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
            boolean isPostgres = process.flatMap(p -> p.info().command())
                    .map(cmd -> Path.of(cmd).getFileName().toString().startsWith("postgres"))
                    .orElse(false);
            if (isPostgres) {
                LOG.log(System.Logger.Level.WARNING,
                        "PostgreSQL (pid {0,number,#}) from an earlier run still uses {1}; stopping it", pid, data);
                stop();
            } else {
                LOG.log(System.Logger.Level.INFO, "Removing stale {0}", pidFile);
                deleteQuietly(pidFile);
            }
        }

        void run(List<String> command, long timeoutSeconds) {
            List<String> full = new ArrayList<>();
            if (root) {
                full.addAll(List.of("setpriv", "--reuid=" + UNPRIVILEGED_ID, "--regid=" + UNPRIVILEGED_ID,
                        "--clear-groups"));
            }
            full.addAll(command);
            Path output = null;
            try {
                output = Files.createTempFile("convo-pg-cmd", ".out");
                ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true)
                        // A file, not a pipe: the daemonized postmaster must not keep our pipe open.
                        .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(devNull()));
                pb.environment().keySet().removeIf(k -> k.startsWith("PG"));
                Process process = pb.start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("Timed out after " + timeoutSeconds + " s: " + String.join(" ", full));
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException("Command failed (exit " + process.exitValue() + "): "
                            + String.join(" ", full) + "\n" + Files.readString(output, StandardCharsets.UTF_8).strip());
                }
            } catch (IOException e) {
                throw new IllegalStateException("Could not run " + String.join(" ", full) + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while running " + String.join(" ", full), e);
            } finally {
                if (output != null) {
                    deleteQuietly(output);
                }
            }
        }

        private String logTail() {
            try {
                List<String> lines = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }

        private static java.io.File devNull() {
            return new java.io.File(System.getProperty("os.name").toLowerCase().startsWith("windows") ? "NUL"
                    : "/dev/null");
        }
    }

    static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort
        }
    }

    static void makeWorldReadable(Path dir) throws IOException {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
