package ai.convo.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A JdbcTemplate that can hold back writes whose row count nobody needs ({@link #write}) and send them as JDBC batches:
 * consecutive writes of the same statement go in one batch, in one round trip. Everything else this template runs
 * first sends what is held back, in order, on the same connection, and so does the commit; a rollback drops it. So a
 * read always sees the writes before it, and nothing is reordered. Outside a transaction a write runs at once.
 * <p>
 * Statements written this way should not be multi-row-rewritable upserts that may meet the same key twice in a batch
 * (the driver rewrites batched {@code INSERT ... VALUES} into one statement, which may not update a row twice):
 * write those as {@code INSERT ... SELECT}.
 * <p>
 * A {@link #setting} (a {@code CALL} that only sets something for what follows, such as the event position the
 * history trigger reads) travels in one statement with the next write or {@link #update(String, Object...)} instead
 * of a round trip of its own.
 * <p>
 * A caller may also {@link #folded fold} writes of a transaction itself (counts, marks: many changes of one row made
 * one): they go like held-back writes, before anything else this template runs (except what the caller runs
 * {@link #updateKeepingFolded beside them}), at {@link #flush()} and at the commit; a rollback or {@link #discard()}
 * drops them.
 */
public class BatchingJdbcTemplate extends JdbcTemplate {

    /** The writes held back in one transaction: groups of one statement's argument lists, in order. */
    private static final class Pending implements TransactionSynchronization {
        private final BatchingJdbcTemplate template;
        private final List<String> statements = new ArrayList<>();
        private final List<List<Object[]>> arguments = new ArrayList<>();
        /** Statements that carry a setting: sent row by row (the driver cannot batch two statements in one). */
        private final List<Boolean> composite = new ArrayList<>();
        /** Folded writes, by their caller's key: written before the next other statement, at flush and at the commit. */
        private final Map<Object, Folded> folds = new LinkedHashMap<>();
        /** While a statement that leaves the folded rows alone runs: they stay folded. */
        private boolean keepFolds;
        private int size;
        private String setting;
        /** The setting as an expression a write can carry in a WITH item (see {@link #carrying}); null: none. */
        private String settingExpression;
        private Object[] settingArgs;

        Pending(BatchingJdbcTemplate template) {
            this.template = template;
        }

        void add(String sql, Object[] args) {
            if (setting != null) {
                Object[] both = new Object[settingArgs.length + args.length];
                System.arraycopy(settingArgs, 0, both, 0, settingArgs.length);
                System.arraycopy(args, 0, both, settingArgs.length, args.length);
                String call = setting;
                String carried = settingExpression == null ? null : carrying(settingExpression, sql);
                setting = null;
                settingArgs = null;
                settingExpression = null;
                if (carried != null) {
                    group(carried, both);
                    return;
                }
                statements.add(call + ";\n" + sql);
                arguments.add(new ArrayList<>(List.<Object[]>of(both)));
                composite.add(true);
                size++;
                return;
            }
            group(sql, args);
        }

        /** {@code sql} with {@code args} after the writes before it, in one batch with the last if it is the same. */
        private void group(String sql, Object[] args) {
            int last = statements.size() - 1;
            if (last >= 0 && composite.get(last)) {
                last = -1;
            }
            if (last < 0 || !statements.get(last).equals(sql)) {
                statements.add(sql);
                arguments.add(new ArrayList<>());
                composite.add(false);
                last = statements.size() - 1;
            }
            arguments.get(last).add(args);
            size++;
        }

        void set(String sql, String expression, Object[] args) {
            setting = sql;
            settingExpression = expression;
            settingArgs = args;
        }

        boolean isEmpty() {
            return size == 0 && setting == null && folds.isEmpty();
        }

        /** Sends the writes, and a setting no write took along when another statement is to follow (not at commit). */
        void send(Connection connection, boolean statementFollows) throws SQLException {
            try {
                if (!statementFollows) {
                    setting = null;
                }
                if (setting != null) {
                    statements.add(setting);
                    arguments.add(new ArrayList<>(List.<Object[]>of(settingArgs)));
                    composite.add(true);
                }
                for (int i = 0; i < statements.size(); i++) {
                    List<Object[]> rows = arguments.get(i);
                    try (PreparedStatement statement = connection.prepareStatement(statements.get(i))) {
                        for (Object[] row : rows) {
                            new ArgumentPreparedStatementSetter(row).setValues(statement);
                            if (rows.size() > 1) {
                                statement.addBatch();
                            }
                        }
                        if (rows.size() > 1) {
                            statement.executeBatch();
                        } else {
                            statement.executeUpdate();
                        }
                    }
                }
            } finally {
                statements.clear();
                arguments.clear();
                composite.clear();
                size = 0;
                setting = null;
                settingExpression = null;
                settingArgs = null;
            }
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            template.flush(false);
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(template);
        }
    }

    /** Writes a caller folds within one transaction ({@link #folded}): written when held-back writes are sent. */
    public interface Folded {
        /** Writes what was folded, through this template; called once, then this instance is forgotten. */
        void write();

        /**
         * Whether statements other than its owner's may read or change the folded rows, so they go first (the
         * default). When not, they wait for {@link #flush()} or the commit, however many other statements run.
         */
        default boolean beforeOtherStatements() {
            return true;
        }
    }

    private final int maxPending;

    public BatchingJdbcTemplate(DataSource dataSource, int maxPending) {
        super(dataSource);
        this.maxPending = maxPending;
    }

    /**
     * Runs {@code sql} with {@code args} now or with the next statement of this transaction, whichever this template
     * finds cheaper; the row count is not known. For writes whose outcome the caller does not look at.
     */
    public void write(String sql, Object... args) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            update(sql, args);
            return;
        }
        Pending pending = pending();
        pending.add(sql, args.clone());
        if (pending.size >= maxPending) {
            flush();
        }
    }

    /**
     * Runs {@code sql}, a {@code CALL} of a procedure that only sets something for the statements after it in this
     * transaction (set_config), with the next statement this template runs, in one round trip; not at all when none
     * follows before the commit. Replaces a setting no statement took along yet. Outside a transaction: at once.
     */
    public void setting(String sql, Object... args) {
        carriedSetting(sql, null, args);
    }

    /**
     * As {@link #setting(String, Object...)}, with {@code expression}: a call of a function that sets the same (its
     * parameters those of {@code sql}). A held-back write then carries the setting in a WITH item of its own
     * statement ({@code WITH app_setting AS (INSERT INTO setting_sink SELECT 1 WHERE <expression> IS NULL) ...}:
     * a data-modifying WITH item runs once, inserts nothing, and the statement's AFTER triggers see what it set), so
     * consecutive writes of one statement, each with its own setting, still go in one batch.
     */
    public void carriedSetting(String sql, String expression, Object... args) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            update(sql, args);
            return;
        }
        pending().set(sql, expression, args.clone());
    }

    /** {@code sql} carrying {@code expression} in a WITH item of its own; null when it is not a write that can. */
    static String carrying(String expression, String sql) {
        String item = "app_setting AS (INSERT INTO setting_sink SELECT 1 WHERE " + expression + " IS NULL)";
        String statement = sql.stripLeading();
        if (startsWith(statement, "WITH RECURSIVE ")) {
            return "WITH RECURSIVE " + item + ", " + statement.substring("WITH RECURSIVE ".length());
        }
        if (startsWith(statement, "WITH ")) {
            return "WITH " + item + ", " + statement.substring("WITH ".length());
        }
        if (startsWith(statement, "INSERT ") || startsWith(statement, "UPDATE ") || startsWith(statement, "DELETE ")) {
            return "WITH " + item + " " + statement;
        }
        return null;
    }

    private static boolean startsWith(String statement, String keyword) {
        return statement.regionMatches(true, 0, keyword, 0, keyword.length());
    }

    /**
     * This transaction's folded writes under {@code key}, made by {@code create} the first time; null outside a
     * transaction (the caller then writes at once).
     */
    public <T extends Folded> T folded(Object key, Supplier<T> create) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return null;
        }
        @SuppressWarnings("unchecked")
        T folded = (T) pending().folds.computeIfAbsent(key, k -> create.get());
        return folded;
    }

    /**
     * As {@link #update(String, Object...)}, for a statement that neither reads nor changes any folded rows (the
     * caller's own insert of the rows it counts): the folded writes stay folded instead of going before it.
     */
    public int updateKeepingFolded(String sql, Object... args) {
        Pending pending = TransactionSynchronizationManager.isSynchronizationActive()
                ? (Pending) TransactionSynchronizationManager.getResource(this) : null;
        if (pending == null || pending.keepFolds) {
            return update(sql, args);
        }
        pending.keepFolds = true;
        try {
            return update(sql, args);
        } finally {
            pending.keepFolds = false;
        }
    }

    /** Writes the folds; {@code all}: those that wait for the flush too. */
    private static void writeFolds(Pending pending, boolean all) {
        while (true) {
            Object next = null;
            for (Map.Entry<Object, Folded> fold : pending.folds.entrySet()) {
                if (all || fold.getValue().beforeOtherStatements()) {
                    next = fold.getKey();
                    break;
                }
            }
            if (next == null) {
                return;
            }
            pending.folds.remove(next).write();
        }
    }

    /**
     * As {@link JdbcTemplate#update(String, Object...)}; a setting no write took along yet goes in the same round trip
     * (one statement of both), and the row count is the one of {@code sql}.
     */
    @Override
    public int update(String sql, Object... args) throws DataAccessException {
        Pending pending = TransactionSynchronizationManager.isSynchronizationActive()
                ? (Pending) TransactionSynchronizationManager.getResource(this) : null;
        if (pending == null || pending.setting == null) {
            return super.update(sql, args);
        }
        Object[] both = new Object[pending.settingArgs.length + args.length];
        System.arraycopy(pending.settingArgs, 0, both, 0, pending.settingArgs.length);
        System.arraycopy(args, 0, both, pending.settingArgs.length, args.length);
        String composite = pending.setting + ";\n" + sql;
        pending.setting = null;
        pending.settingExpression = null;
        pending.settingArgs = null;
        Integer count = execute(composite, (PreparedStatementCallback<Integer>) statement -> {
            new ArgumentPreparedStatementSetter(both).setValues(statement);
            statement.execute();
            // the setting's outcome first (a CALL's, no row count), then the statement's
            statement.getMoreResults();
            return Math.max(statement.getUpdateCount(), 0);
        });
        return count == null ? 0 : count;
    }

    private Pending pending() {
        Pending pending = (Pending) TransactionSynchronizationManager.getResource(this);
        if (pending == null) {
            pending = new Pending(this);
            TransactionSynchronizationManager.bindResource(this, pending);
            TransactionSynchronizationManager.registerSynchronization(pending);
        }
        return pending;
    }

    /** Drops what this transaction holds back (the writes of a handler rolled back to its savepoint). */
    public void discard() {
        if (TransactionSynchronizationManager.isSynchronizationActive()
                && TransactionSynchronizationManager.getResource(this) instanceof Pending pending) {
            pending.statements.clear();
            pending.arguments.clear();
            pending.composite.clear();
            pending.folds.clear();
            pending.size = 0;
            pending.setting = null;
            pending.settingExpression = null;
            pending.settingArgs = null;
        }
    }

    /** Sends what this transaction holds back. */
    public void flush() {
        flush(true);
    }

    private void flush(boolean statementFollows) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        Pending pending = (Pending) TransactionSynchronizationManager.getResource(this);
        if (pending == null || pending.isEmpty()) {
            return;
        }
        writeFolds(pending, true);
        if (pending.isEmpty()) {
            return;
        }
        Connection connection = DataSourceUtils.getConnection(obtainDataSource());
        try {
            pending.send(connection, statementFollows);
        } catch (SQLException e) {
            throw translate(e);
        } finally {
            DataSourceUtils.releaseConnection(connection, getDataSource());
        }
    }

    /** Every statement this template runs passes here first: the writes held back go before it. */
    @Override
    protected void applyStatementSettings(Statement statement) throws SQLException {
        Pending pending = TransactionSynchronizationManager.isSynchronizationActive()
                ? (Pending) TransactionSynchronizationManager.getResource(this) : null;
        if (pending != null && !pending.keepFolds) {
            writeFolds(pending, false);
        }
        if (pending != null && !pending.isEmpty()) {
            pending.send(statement.getConnection(), true);
        }
        super.applyStatementSettings(statement);
    }

    @Override
    public <T> T execute(ConnectionCallback<T> action) throws DataAccessException {
        flush();
        return super.execute(action);
    }

    private DataAccessException translate(SQLException e) {
        DataAccessException translated = getExceptionTranslator().translate("batched write", null, e);
        return translated != null ? translated
                : new org.springframework.jdbc.UncategorizedSQLException("batched write", null, e);
    }
}
