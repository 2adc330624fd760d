package ai.convo.query;

import ai.convo.testing.TestDatabase;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** A new database with the query service's schema, for projection tests that feed events and look at rows. */
public final class ReadModelSchema {

    private ReadModelSchema() {
    }

    /** A new database on the shared test server, migrated as the query service migrates its own. */
    public static DriverManagerDataSource migrated() {
        TestDatabase.Settings db = TestDatabase.newDatabase();
        DriverManagerDataSource dataSource = new DriverManagerDataSource(db.jdbcUrl(), db.username(), db.password());
        for (String[] migration : new String[][] {{"classpath:db/common", "flyway_history_common"},
                {"classpath:db/query", "flyway_history_query"}}) {
            Flyway.configure().dataSource(dataSource).locations(migration[0]).table(migration[1])
                    .baselineOnMigrate(true).baselineVersion("0").load().migrate();
        }
        return dataSource;
    }
}
