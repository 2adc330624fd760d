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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Writes held back are sent before anything else the template runs, in order, at the commit, and not after a rollback. */
@Tag("integration")
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
        // what the setting was when each row was written (as the history trigger reads app.position)
        jdbc.execute("CREATE TABLE IF NOT EXISTS stamped (id INT PRIMARY KEY, "
                + "stamp TEXT DEFAULT current_setting('app.test_stamp', true))");
        jdbc.execute("CREATE OR REPLACE PROCEDURE test_stamp(v TEXT) LANGUAGE plpgsql AS $$ BEGIN "
                + "PERFORM set_config('app.test_stamp', v, true); END $$");
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @BeforeEach
    void empty() {
        jdbc.execute("TRUNCATE batched, stamped");
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

    @Test
    void givenSettingsBeforeWrites_whenTheTransactionCommits_thenEachWriteSawTheSettingMadeBeforeIt() {
        transaction.executeWithoutResult(status -> {
            jdbc.setting("CALL test_stamp(?)", "first");
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 1);
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 2);
            jdbc.setting("CALL test_stamp(?)", "second");
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 3);
            jdbc.setting("CALL test_stamp(?)", "unused");
            jdbc.setting("CALL test_stamp(?)", "third");
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 4);
            jdbc.write("UPDATE stamped SET stamp = current_setting('app.test_stamp', true) || '!' WHERE id = ?", 1);
        });
        assertThat(jdbc.queryForList("SELECT id || '=' || stamp FROM stamped ORDER BY id", String.class))
                .containsExactly("1=third!", "2=first", "3=second", "4=third");
    }

    @Test
    void givenASettingNoWriteTookAlong_whenAnotherStatementRuns_thenTheSettingWentBeforeIt() {
        String seen = transaction.execute(status -> {
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 1);
            jdbc.setting("CALL test_stamp(?)", "for the read");
            return jdbc.queryForObject("SELECT current_setting('app.test_stamp', true)", String.class);
        });
        assertThat(seen).isEqualTo("for the read");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM stamped WHERE stamp IS NULL OR stamp = ''", Long.class))
                .isEqualTo(1);
    }

    @Test
    void givenASettingLastInTheTransaction_whenItCommits_thenTheSettingIsNotSentAtAll() {
        // were it sent, the commit would fail: the procedure does not exist
        transaction.executeWithoutResult(status -> {
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 1);
            jdbc.setting("CALL no_such_procedure(?)", "x");
        });
        assertThat(jdbc.queryForObject("SELECT count(*) FROM stamped", Long.class)).isEqualTo(1);
    }

    @Test
    void givenASetting_whenAnUpdateRuns_thenItCarriesTheSettingAndAnswersItsOwnRowCount() {
        int[] counts = transaction.execute(status -> {
            jdbc.write("INSERT INTO stamped (id) VALUES (?)", 1);
            jdbc.setting("CALL test_stamp(?)", "with the update");
            int inserted = jdbc.update("INSERT INTO stamped (id) VALUES (?), (?) ON CONFLICT (id) DO NOTHING", 1, 2);
            int none = jdbc.update("UPDATE stamped SET stamp = 'x' WHERE id = ?", 99);
            return new int[] {inserted, none};
        });
        assertThat(counts).containsExactly(1, 0);
        assertThat(jdbc.queryForList("SELECT id || '=' || coalesce(stamp, '') FROM stamped ORDER BY id", String.class))
                .containsExactly("1=", "2=with the update");
    }

    /** Counts folded per key, as a projection folds the sentence counts of a batch. */
    private static final class Tally implements BatchingJdbcTemplate.Folded {
        final java.util.Map<Integer, Integer> added = new java.util.LinkedHashMap<>();

        @Override
        public void write() {
            added.forEach((id, n) -> jdbc.update("INSERT INTO batched (id, label) VALUES (?, ?::text) ON CONFLICT (id) "
                    + "DO UPDATE SET label = (batched.label::int + EXCLUDED.label::int)::text", id, n));
        }
    }

    @Test
    void givenFoldedWrites_whenAnotherStatementRunsOrTheTransactionCommits_thenTheyGoFirstOnceAndADiscardDropsThem() {
        Object key = new Object();
        transaction.executeWithoutResult(status -> {
            jdbc.folded(key, Tally::new).added.merge(1, 1, Integer::sum);
            jdbc.updateKeepingFolded("INSERT INTO stamped (id) VALUES (?)", 1);
            assertThat(jdbc.folded(key, Tally::new).added).as("still folded beside that insert").containsEntry(1, 1);
            jdbc.folded(key, Tally::new).added.merge(1, 1, Integer::sum);
            assertThat(jdbc.queryForObject("SELECT label FROM batched WHERE id = 1", String.class)).isEqualTo("2");
            jdbc.folded(key, Tally::new).added.merge(2, 5, Integer::sum);
            jdbc.discard();
            jdbc.folded(key, Tally::new).added.merge(1, 3, Integer::sum);
        });
        assertThat(jdbc.queryForList("SELECT id || '=' || label FROM batched ORDER BY id", String.class))
                .containsExactly("1=5");
        assertThat(jdbc.folded(key, Tally::new)).as("outside a transaction: write at once").isNull();
    }
}
