package ai.convo.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class TestDatabaseTest {

    @Test
    void everyCallGivesAnIsolatedDatabaseOnTheSameServer() throws Exception {
        TestDatabase.Settings first = TestDatabase.newDatabase();
        TestDatabase.Settings second = TestDatabase.newDatabase();

        assertNotEquals(first.database(), second.database());
        assertEquals(first.port(), second.port());
        execute(first, "CREATE TABLE only_here(id int)");
        assertEquals(1, countTables(first, "only_here"));
        assertEquals(0, countTables(second, "only_here"));
    }

    private static void execute(TestDatabase.Settings db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static int countTables(TestDatabase.Settings db, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_tables WHERE tablename = '" + name + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
