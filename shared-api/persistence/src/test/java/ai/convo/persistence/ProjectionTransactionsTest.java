package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.TestDatabase;
import com.zaxxer.hikari.HikariDataSource;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/** A projection transaction commits without waiting for the flush; the pooled connection goes back as it was. */
@Tag("integration")
class ProjectionTransactionsTest {

    private static HikariDataSource dataSource;

    @BeforeAll
    static void database() {
        TestDatabase.Settings db = TestDatabase.newDatabase();
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(db.jdbcUrl());
        dataSource.setUsername(db.username());
        dataSource.setPassword(db.password());
        dataSource.setMaximumPoolSize(1);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @Test
    void onlyTheProjectionTransactionCommitsAsynchronously() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        ProjectionTransactions transactions = new ProjectionTransactions(
                new SpringTransactionManager(new DataSourceTransactionManager(dataSource)), dataSource);

        Transaction transaction = transactions.startTransaction();
        String inside = jdbc.queryForObject("SHOW synchronous_commit", String.class);
        transaction.commit();
        String after = jdbc.queryForObject("SHOW synchronous_commit", String.class);

        assertThat(inside).isEqualTo("off");
        assertThat(after).isEqualTo("on");
    }
}
