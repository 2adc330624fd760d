package ai.convo.localpg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class LocalPostgresTest {

    @Test
    void keepsDataAcrossRestarts() throws Exception {
        // World-traversable so that, when run as root, the unprivileged server can use it without falling back.
        Path dir = Files.createTempDirectory("local-pg-test", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        Path data = dir.resolve("data");
        Path actualData;
        try (LocalPostgres pg = LocalPostgres.start(data, 0, false)) {
            actualData = pg.dataDir();
            pg.createDatabaseIfMissing("app");
            pg.createDatabaseIfMissing("app");
            execute(pg, "CREATE EXTENSION pg_trgm; CREATE TABLE t(v text); INSERT INTO t VALUES ('kept')");
            pg.close();
            pg.close();
        }
        assertEquals(data.toAbsolutePath(), actualData);
        try (LocalPostgres pg = LocalPostgres.start(data, 0, false)) {
            assertEquals("kept", queryOne(pg, "SELECT v FROM t"));
            assertEquals("ÄRGER", queryOne(pg, "SELECT upper('ärger')"));
            assertTrue(pg.jdbcUrl("app").startsWith("jdbc:postgresql://127.0.0.1:"));
        }
        Binaries.deleteTree(dir);
    }

    @Test
    void standbyStreamsWhatThePrimaryCommitsAndRefusesWrites() throws Exception {
        Path dir = Files.createTempDirectory("local-pg-standby", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        try (LocalPostgres primary = LocalPostgres.start(dir.resolve("primary"), 0, false)) {
            primary.createDatabaseIfMissing("app");
            execute(primary, "CREATE TABLE t(v int); INSERT INTO t VALUES (1)");
            try (LocalPostgres standby = LocalPostgres.startStandby(primary, dir.resolve("standby"), 0, false)) {
                assertEquals("1", queryOne(standby, "SELECT count(*) FROM t"));
                assertEquals("true", queryOne(standby, "SELECT pg_is_in_recovery()::text"));
                execute(primary, "INSERT INTO t SELECT generate_series(2, 1000)");
                // Streaming is asynchronous: the row count is what settles, not a sleep.
                String count = "";
                for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline
                        && !count.equals("1000"); ) {
                    count = queryOne(standby, "SELECT count(*) FROM t");
                }
                assertEquals("1000", count);
                SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> execute(standby, "INSERT INTO t VALUES (0)"));
                assertEquals("25006", refused.getSQLState());
                standby.close();
                execute(primary, "INSERT INTO t VALUES (1001)");
                // A restarted standby catches up from its slot.
                try (LocalPostgres again = LocalPostgres.startStandby(primary, dir.resolve("standby"), 0, false)) {
                    String after = "";
                    for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline
                            && !after.equals("1001"); ) {
                        after = queryOne(again, "SELECT count(*) FROM t");
                    }
                    assertEquals("1001", after);
                }
            }
        }
        Binaries.deleteTree(dir);
    }

    private static void execute(LocalPostgres pg, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl("app"), pg.user(), "");
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String queryOne(LocalPostgres pg, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl("app"), pg.user(), "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
