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

import org.junit.jupiter.api.Test;

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
