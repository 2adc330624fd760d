package ai.convo.query.deadletter;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.Decisions;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.axonframework.messaging.deadletter.ThrowableCause;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/**
 * Which failures park an event: any that belongs to the event (a value the database refuses, a handler's bug), not
 * one of the moment (the database unreachable, a deadlock, a lost claim), which is thrown on so the processor tries
 * the batch again rather than parking every event it meets. A parked event counts its attempts ({@code retries}), from
 * which {@link DeadLetterRetrier} backs off.
 */
public class ParkingPolicy implements EnqueuePolicy<EventMessage<?>> {

    static final String RETRIES = "retries";
    /** Room for PostgreSQL's message with its detail; the column is text. */
    private static final int MESSAGE_SIZE = 2000;

    @Override
    public EnqueueDecision<EventMessage<?>> decide(DeadLetter<? extends EventMessage<?>> letter, Throwable cause) {
        if (ofTheMoment(cause)) {
            throw cause instanceof RuntimeException runtime ? runtime
                    : new IllegalStateException("A projection could not apply an event for now", cause);
        }
        Object before = letter.diagnostics().get(RETRIES);
        long retries = before instanceof Number n ? n.longValue() + 1 : 0;
        return Decisions.enqueue(parked(cause), parked -> parked.diagnostics().and(RETRIES, retries));
    }

    /**
     * The cause as stored: the failure itself (Axon keeps its type and message), or, when its message holds what a
     * text column cannot (NUL, a lone surrogate), a copy of type and message without it.
     */
    static Throwable parked(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root && !(root instanceof SQLException)) {
            root = root.getCause();
        }
        ThrowableCause clean = cause(root);
        return clean.message().equals(String.valueOf(root.getMessage())) ? root : clean;
    }

    /** Type and message of a failure, the message without what text columns cannot hold (NUL). */
    static ThrowableCause cause(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root && !(root instanceof SQLException)) {
            root = root.getCause();
        }
        String message = String.valueOf(root.getMessage()).replace('\u0000', '\uFFFD');
        StringBuilder clean = new StringBuilder();
        message.codePoints().filter(c -> c < 0xD800 || c > 0xDFFF).forEach(clean::appendCodePoint);
        String text = clean.length() > MESSAGE_SIZE ? clean.substring(0, MESSAGE_SIZE) : clean.toString();
        return new ThrowableCause(root.getClass().getName(), text);
    }

    /** Whether a failure is of the moment (the database away, a deadlock): tried again, never parked. */
    public static boolean ofTheMoment(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransientDataAccessException || t instanceof RecoverableDataAccessException
                    || t instanceof CannotGetJdbcConnectionException || t instanceof SQLTransientException
                    || t instanceof SQLRecoverableException || t instanceof InterruptedException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                // connection, transaction rollback (serialization, deadlock), resources, operator intervention,
                // lock not available
                if (state.startsWith("08") || state.startsWith("40") || state.startsWith("53")
                        || state.startsWith("57") || state.equals("55P03")) {
                    return true;
                }
            }
        }
        return false;
    }

    static long retries(MetaData diagnostics) {
        return diagnostics.get(RETRIES) instanceof Number n ? n.longValue() : 0;
    }
}
