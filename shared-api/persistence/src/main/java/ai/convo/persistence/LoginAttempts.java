package ai.convo.persistence;

import ai.convo.contract.identity.LoginFailedEvent;
import ai.convo.contract.identity.LoginSucceededEvent;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.LoginGuard;
import ai.convo.http.security.LoginLock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The {@link LoginGuard} of every service: login_throttle on the primary, and for a user's sign-ins the events
 * (LoginFailed, LoginSucceeded) appended in the same transaction, recorded as that user's writes so their own
 * later reads of their sign-ins wait for them on any replica. An e-mail no user has is counted and locked the same
 * way, but leaves no event (there is nobody's log to put it in). Rows that hold nothing any more are removed hourly.
 */
@Component
public class LoginAttempts extends Periodic implements LoginGuard {

    /** A success is recorded when it ends failures, else at most once per this interval per user. */
    public static final long SUCCESS_INTERVAL_MILLIS = Duration.ofMinutes(15).toMillis();

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final EventStore events;
    private final long lockUnitMillis;

    public LoginAttempts(JdbcTemplate jdbc, PlatformTransactionManager transactions, EventStore events,
                         @org.springframework.beans.factory.annotation.Value("${app.security.login.lock-unit:1s}")
                         Duration lockUnit) {
        super("login-attempts", Duration.ofHours(1));
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.events = events;
        this.lockUnitMillis = lockUnit.toMillis();
    }

    @Override
    public Mono<Long> lockedFor(String email, long now) {
        return blocking(() -> {
            List<Long> until = jdbc.queryForList("SELECT locked_until FROM login_throttle WHERE email = ?", Long.class,
                    email);
            return until.isEmpty() ? 0L : Math.max(0L, until.get(0) - now);
        });
    }

    @Override
    public Mono<Void> failed(String email, ApiPrincipal user, String remoteAddress, long now) {
        return blocking(() -> transaction.execute(status -> {
            Integer failures = jdbc.queryForObject("INSERT INTO login_throttle (email, failures, last_failure_at) "
                    + "VALUES (?, 1, ?) ON CONFLICT (email) DO UPDATE SET failures = CASE WHEN "
                    + "login_throttle.last_failure_at < ? THEN 1 ELSE login_throttle.failures + 1 END, "
                    + "last_failure_at = EXCLUDED.last_failure_at RETURNING failures", Integer.class, email, now,
                    now - LoginLock.FORGET_AFTER_MILLIS);
            int count = failures == null ? 1 : failures;
            long lock = LoginLock.after(count, lockUnitMillis);
            long lockedUntil = lock == 0 ? 0 : now + lock;
            if (lock > 0) {
                jdbc.update("UPDATE login_throttle SET locked_until = ? WHERE email = ?", lockedUntil, email);
            }
            if (user != null) {
                append(user.userId(), new LoginFailedEvent(user.userId(), user.organisationId(), count, lockedUntil,
                        remoteAddress, now));
            }
            return 0L;
        })).then();
    }

    @Override
    public Mono<Void> succeeded(ApiPrincipal user, String remoteAddress, long now) {
        return blocking(() -> {
            List<Map<String, Object>> rows = jdbc.queryForList("SELECT failures, last_success_at FROM login_throttle "
                    + "WHERE email = ?", user.email());
            boolean record = rows.isEmpty() || ((Number) rows.get(0).get("failures")).intValue() > 0
                    || now - ((Number) rows.get(0).get("last_success_at")).longValue() >= SUCCESS_INTERVAL_MILLIS;
            if (!record) {
                return 0L;
            }
            return transaction.execute(status -> {
                jdbc.update("INSERT INTO login_throttle (email, last_success_at) VALUES (?, ?) ON CONFLICT (email) "
                        + "DO UPDATE SET failures = 0, locked_until = 0, last_success_at = EXCLUDED.last_success_at",
                        user.email(), now);
                append(user.userId(), new LoginSucceededEvent(user.userId(), user.organisationId(), remoteAddress, now));
                return 0L;
            });
        }).then();
    }

    /**
     * Appended as the user's write (the append trigger reads app.principal, as for a command's, see
     * AppendingPrincipal), in the open transaction. A sign-in is no aggregate's: Axon stores it under its own id with sequence 0 and no type, and hands it to this process's processors as the plain
     * message it is, to every other reader as a domain event of that id (the event log takes both alike).
     */
    private void append(String userId, Object event) {
        jdbc.queryForObject("SELECT set_config('app.principal', ?, true)", String.class, userId);
        events.publish(GenericEventMessage.asEventMessage(event));
    }

    /** Rows with no failure that still counts, no lock and no recent success tell nothing. */
    @Override
    protected void runOnce() {
        long now = System.currentTimeMillis();
        jdbc.update("DELETE FROM login_throttle WHERE greatest(last_failure_at + ?, last_success_at + ?, locked_until) < ?",
                LoginLock.FORGET_AFTER_MILLIS, SUCCESS_INTERVAL_MILLIS, now);
    }

    private static <T> Mono<T> blocking(java.util.concurrent.Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
    }
}
