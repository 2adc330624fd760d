package ai.convo.persistence;

import ai.convo.testing.TestDatabase;
import org.flywaydb.core.Flyway;

/** A new test database with the schema every service shares ({@code db/common}) migrated. */
final class CommonSchema {

    private CommonSchema() {
    }

    static DatabaseSettings newDatabase() {
        TestDatabase.Settings db = TestDatabase.newDatabase();
        DatabaseSettings settings = new DatabaseSettings(db.host(), db.port(), db.database(), db.username(),
                db.password(), 2, 2);
        Flyway.configure().dataSource(settings.jdbcUrl(), db.username(), db.password())
                .locations("classpath:db/common").load().migrate();
        return settings;
    }
}
