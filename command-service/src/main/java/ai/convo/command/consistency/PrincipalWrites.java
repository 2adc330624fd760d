package ai.convo.command.consistency;

import java.util.concurrent.Callable;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Tells the event store whose write a command is, so that the principal's later reads wait for it on any query
 * replica. A command handled for a principal sets {@code app.principal} for its own transaction; the append trigger
 * (V5) records the newest global index written under each key in that same transaction, so a write is recorded
 * exactly when it commits and before its 2xx. Work runs {@link #as} the principal's keys on the calling thread,
 * which is the thread the command bus handles the command (and any command sent from inside it) on.
 */
@Component
public class PrincipalWrites implements MessageHandlerInterceptor<CommandMessage<?>> {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private final JdbcTemplate jdbc;
    private final java.util.concurrent.atomic.AtomicLong handled = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Axon's Spring Boot configuration registers this bean with the command bus (as every command handler
     * interceptor bean), inside the command's transaction. It registered itself as well once, so every command set
     * its principal twice.
     */
    public PrincipalWrites(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Runs {@code work} with commands recorded under these comma-separated keys (none when blank). */
    public static <T> T as(String keys, Callable<T> work) throws Exception {
        String previous = CURRENT.get();
        CURRENT.set(keys);
        try {
            return work.call();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** How many commands this interceptor has seen: one per command (a test holds it to that). */
    public long handled() {
        return handled.get();
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        handled.incrementAndGet();
        String keys = CURRENT.get();
        if (keys != null && !keys.isBlank()) {
            jdbc.queryForObject("SELECT set_config('app.principal', ?, true)", String.class, keys);
        }
        return interceptorChain.proceed();
    }
}
