package ai.convo.persistence;

import java.sql.SQLException;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;

/**
 * Tells Axon when an append failed on a unique key, so two writers of one aggregate end in a ConcurrencyException
 * (which the write side decides again) rather than an EventStoreException. PostgreSQL reports it as SQLState 23505;
 * a batched insert wraps it in a BatchUpdateException whose own state says nothing, hence the walk through causes
 * and next exceptions, which Axon's error-code resolver does not do.
 */
public final class UniqueViolations implements PersistenceExceptionResolver {

    static final String UNIQUE_VIOLATION = "23505";

    @Override
    public boolean isDuplicateKeyViolation(Exception exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException next = sql; next != null; next = next.getNextException()) {
                    if (UNIQUE_VIOLATION.equals(next.getSQLState())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
