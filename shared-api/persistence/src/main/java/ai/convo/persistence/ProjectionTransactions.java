package ai.convo.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * The transactions of event processors (a batch of projection writes and the processor's token): committed without
 * waiting for the WAL flush. What they write is derived from the event log and stored with the token that says how
 * far it got, so a database crash that loses the last of them loses both together and the processor projects those
 * events again. Nothing a client was told is lost: commands commit synchronously.
 *
 * <p>Why: the cache-invalidation triggers of several read models raise NOTIFY, and a notifying transaction holds
 * PostgreSQL's one notification lock until its commit is flushed, so projection commits queued behind each other's
 * flushes. Without the wait for the flush, the lock is held for microseconds.
 */
public final class ProjectionTransactions implements TransactionManager {

    private final TransactionManager delegate;
    private final DataSource dataSource;
    private final CarefulProjections careful;

    public ProjectionTransactions(TransactionManager delegate, DataSource dataSource) {
        this(delegate, dataSource, null);
    }

    /** As above; a batch that fails or rolls back makes the next ones {@code careful} (dead letters, issue 37). */
    public ProjectionTransactions(TransactionManager delegate, DataSource dataSource, CarefulProjections careful) {
        this.delegate = delegate;
        this.dataSource = dataSource;
        this.careful = careful;
    }

    @Override
    public Transaction startTransaction() {
        Transaction transaction = delegate.startTransaction();
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try (Statement statement = connection.createStatement()) {
            // SET LOCAL: only this transaction; the pooled connection goes back with the server's default.
            statement.execute("SET LOCAL synchronous_commit = off");
        } catch (SQLException e) {
            transaction.rollback();
            throw new IllegalStateException("Could not start a projection transaction: " + e.getMessage(), e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
        if (careful == null) {
            return transaction;
        }
        return new Transaction() {
            @Override
            public void commit() {
                try {
                    transaction.commit();
                } catch (RuntimeException e) {
                    careful.failed();
                    throw e;
                }
            }

            @Override
            public void rollback() {
                careful.failed();
                transaction.rollback();
            }
        };
    }
}
