package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.testing.TestDatabase;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
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
        // as the row history: an AFTER trigger records each row version with the setting of its statement
        jdbc.execute("CREATE OR REPLACE FUNCTION test_stamp_value(v TEXT) RETURNS TEXT LANGUAGE sql VOLATILE AS $$ "
                + "SELECT set_config('app.test_stamp', v, true) $$");
        jdbc.execute("CREATE UNLOGGED TABLE IF NOT EXISTS setting_sink (never INTEGER)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS triggered (id INT PRIMARY KEY, label TEXT NOT NULL)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS trigger_log (seq BIGSERIAL, entry TEXT)");
        jdbc.execute("CREATE OR REPLACE FUNCTION log_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "INSERT INTO trigger_log (entry) VALUES (NEW.id || '=' || NEW.label || '@' "
                + "|| current_setting('app.test_stamp', true)); RETURN NULL; END $$");
        jdbc.execute("CREATE OR REPLACE TRIGGER triggered_log AFTER INSERT OR UPDATE ON triggered FOR EACH ROW "
                + "EXECUTE FUNCTION log_version()");
        countingJdbc = new BatchingJdbcTemplate(counting(dataSource), 1000);
        countingTransaction = new TransactionTemplate(new DataSourceTransactionManager(countingJdbc.getDataSource()));
    }

    /** Statements sent to the server through {@link #countingJdbc}: each execute, or a whole batch, counts one. */
    private static final AtomicInteger sent = new AtomicInteger();
    private static BatchingJdbcTemplate countingJdbc;
    private static TransactionTemplate countingTransaction;

    private static DataSource counting(DataSource target) {
        return new DelegatingDataSource(target) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection connection = super.getConnection();
                return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                            Object result = invoke(connection, method, args);
                            return result instanceof PreparedStatement statement ? counted(statement) : result;
                        });
            }
        };
    }

    private static PreparedStatement counted(PreparedStatement statement) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("execute")) {
                        sent.incrementAndGet();
                    }
                    return invoke(statement, method, args);
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @BeforeEach
    void empty() {
        jdbc.execute("TRUNCATE batched, stamped, triggered, trigger_log");
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
    void givenWritesEachCarryingASettingOfItsOwn_whenSent_thenOneBatchAndEachRowsTriggerSawItsOwnSetting() {
        // given: five inserts, each after a setting of its own (as each event's first write after its stamp), then a
        // statement that starts with WITH, then one with no setting of its own
        sent.set(0);
        countingTransaction.executeWithoutResult(status -> {
            for (int i = 1; i <= 5; i++) {
                countingJdbc.carriedSetting("CALL test_stamp(?)", "test_stamp_value(?)", "event " + i);
                countingJdbc.write("INSERT INTO triggered (id, label) VALUES (?, ?)", i, "v" + i);
            }
            countingJdbc.carriedSetting("CALL test_stamp(?)", "test_stamp_value(?)", "event 6");
            countingJdbc.write("WITH n AS (SELECT ?::int AS id) UPDATE triggered SET label = 'changed' FROM n "
                    + "WHERE triggered.id = n.id", 2);
            countingJdbc.write("UPDATE triggered SET label = 'again' WHERE id = ?", 3);
            // when: the commit sends them
        });

        // then: the inserts went as one batch, and every version was recorded with the setting made before its write
        assertThat(sent.get()).as("statements sent: the batch of inserts, the update with WITH, the plain update")
                .isEqualTo(3);
        assertThat(jdbc.queryForList("SELECT entry FROM trigger_log ORDER BY seq", String.class)).containsExactly(
                "1=v1@event 1", "2=v2@event 2", "3=v3@event 3", "4=v4@event 4", "5=v5@event 5", "2=changed@event 6",
                "3=again@event 6");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM setting_sink", Long.class)).isZero();
    }

    @Test
    void givenAStatementThatIsNoWrite_whenASettingIsCarried_thenItIsLeftAsItIs() {
        assertThat(BatchingJdbcTemplate.carrying("f(?)", "SELECT 1")).isNull();
        assertThat(BatchingJdbcTemplate.carrying("f(?)", "  with recursive r AS (SELECT 1) DELETE FROM t"))
                .isEqualTo("WITH RECURSIVE app_setting AS (INSERT INTO setting_sink SELECT 1 WHERE f(?) IS NULL), "
                        + "r AS (SELECT 1) DELETE FROM t");
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
