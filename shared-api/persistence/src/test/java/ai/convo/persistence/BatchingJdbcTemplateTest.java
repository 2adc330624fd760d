package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.testing.TestDatabase;
import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Writes held back are sent before anything else the template runs, in order, at the commit, and not after a rollback. */
class BatchingJdbcTemplateTest {

    private static HikariDataSource dataSource;
    private static BatchingJdbcTemplate jdbc;
    private static TransactionTemplate transaction;

    @BeforeAll
    static void database() {
        TestDatabase.Settings db = TestDatabase.newDatabase();
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(db.jdbcUrl());
        dataSource.setUsername(db.username());
        dataSource.setPassword(db.password());
        jdbc = new BatchingJdbcTemplate(dataSource, 1000);
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        jdbc.execute("CREATE TABLE IF NOT EXISTS batched (id INT PRIMARY KEY, label TEXT NOT NULL, seq BIGSERIAL)");
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @BeforeEach
    void empty() {
        jdbc.execute("TRUNCATE batched");
    }

    @Test
    void givenHeldBackWrites_whenTheTransactionReads_thenItSeesThemInTheOrderWritten() {
        List<String> seen = transaction.execute(status -> {
            for (int i = 0; i < 10; i++) {
                jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", i, "v" + i);
            }
            jdbc.write("UPDATE batched SET label = 'changed' WHERE id = ?", 3);
            jdbc.write("DELETE FROM batched WHERE id = ?", 4);
            jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 4, "again");
            return jdbc.queryForList("SELECT label FROM batched ORDER BY seq", String.class);
        });
        assertThat(seen).containsExactly("v0", "v1", "v2", "changed", "v5", "v6", "v7", "v8", "v9", "again");
    }

    @Test
    void givenHeldBackWrites_whenTheTransactionCommits_thenTheyAreStored() {
        AtomicLong before = new AtomicLong();
        transaction.executeWithoutResult(status -> {
            jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 1, "one");
            jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 2, "two");
            // another connection does not see them yet: they are still in this process
            before.set(new org.springframework.jdbc.core.JdbcTemplate(dataSource)
                    .queryForObject("SELECT count(*) FROM batched", Long.class));
        });
        assertThat(before.get()).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM batched", Long.class)).isEqualTo(2);
    }

    @Test
    void givenAFailingHeldBackWrite_whenTheTransactionCommits_thenNothingIsStored() {
        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
            jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 1, "one");
            jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 1, "duplicate");
        })).isInstanceOf(DataAccessException.class);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM batched", Long.class)).isZero();
    }

    @Test
    void givenARollback_whenWritesWereHeldBack_thenTheyAreDroppedAndTheNextTransactionStartsClean() {
        transaction.executeWithoutResult(status -> {
            jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 1, "one");
            status.setRollbackOnly();
        });
        transaction.executeWithoutResult(status -> jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 2, "two"));
        assertThat(jdbc.queryForList("SELECT id FROM batched", Integer.class)).containsExactly(2);
    }

    @Test
    void givenNoTransaction_whenWriting_thenItRunsAtOnce() {
        jdbc.write("INSERT INTO batched (id, label) VALUES (?, ?)", 1, "one");
        assertThat(new org.springframework.jdbc.core.JdbcTemplate(dataSource)
                .queryForObject("SELECT count(*) FROM batched", Long.class)).isEqualTo(1);
    }
}
