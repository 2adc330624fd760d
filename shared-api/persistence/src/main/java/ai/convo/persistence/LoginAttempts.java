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
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
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
    /** A claimed check not settled within this was lost with its replica: it no longer counts as in flight. */
    static final long CHECK_ABANDONED_AFTER_MILLIS = Duration.ofMinutes(1).toMillis();
    /** The failures and the checks in flight that still count, in statements that name the row {@code t}. */
    private static final String FAILURES = "(CASE WHEN t.last_failure_at < :forgotten THEN 0 ELSE t.failures END)";
    private static final String CHECKING = "(CASE WHEN t.checking_since < :abandoned THEN 0 ELSE t.checking END)";

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final TransactionTemplate transaction;
    private final EventStore events;
    private final long lockUnitMillis;

    public LoginAttempts(JdbcTemplate jdbc, PlatformTransactionManager transactions, EventStore events,
                         @org.springframework.beans.factory.annotation.Value("${app.security.login.lock-unit:1s}")
                         Duration lockUnit) {
        super("login-attempts", Duration.ofHours(1));
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.transaction = new TransactionTemplate(transactions);
        this.events = events;
        this.lockUnitMillis = lockUnit.toMillis();
    }

    @Override
    public Mono<Long> claim(String email, long now) {
        return blocking(() -> {
            Map<String, Object> at = Map.of("email", email, "now", now, "free", LoginLock.FREE_FAILURES,
                    "forgotten", now - LoginLock.FORGET_AFTER_MILLIS, "abandoned", now - CHECK_ABANDONED_AFTER_MILLIS);
            // One statement takes the row's lock, so concurrent claims on any replica see each other's.
            for (int attempt = 0; attempt < 3; attempt++) {
                if (!named.queryForList("INSERT INTO login_throttle AS t (email, checking, checking_since) "
                        + "VALUES (:email, 1, :now) ON CONFLICT (email) DO UPDATE SET checking = " + CHECKING + " + 1, "
                        + "checking_since = :now WHERE t.locked_until <= :now AND (" + CHECKING + " = 0 OR "
                        + FAILURES + " + " + CHECKING + " < :free) RETURNING 1", at, Integer.class).isEmpty()) {
                    return 0L;
                }
                List<Map<String, Object>> rows = named.queryForList("SELECT " + FAILURES + " AS failures, " + CHECKING
                        + " AS checking, t.locked_until FROM login_throttle t WHERE t.email = :email", at);
                long wait = rows.isEmpty() ? 0 : LoginLock.waitFor(((Number) rows.get(0).get("failures")).intValue(),
                        ((Number) rows.get(0).get("checking")).intValue(),
                        ((Number) rows.get(0).get("locked_until")).longValue(), now, lockUnitMillis);
                if (wait > 0) {
                    return wait;
                }
                // the checks in flight ended between the two statements: claim again
            }
            return lockUnitMillis; // claims kept racing settlements: answered as the shortest lock
        });
    }

    @Override
    public Mono<Void> failed(String email, ApiPrincipal user, String remoteAddress, long now) {
        return blocking(() -> transaction.execute(status -> {
            Integer failures = named.queryForObject("INSERT INTO login_throttle AS t (email, failures, "
                    + "last_failure_at) VALUES (:email, 1, :now) ON CONFLICT (email) DO UPDATE SET failures = "
                    + FAILURES + " + 1, last_failure_at = :now, checking = greatest(0, " + CHECKING + " - 1) "
                    + "RETURNING t.failures",
                    Map.of("email", email, "now", now, "forgotten", now - LoginLock.FORGET_AFTER_MILLIS,
                            "abandoned", now - CHECK_ABANDONED_AFTER_MILLIS), Integer.class);
            int count = failures == null ? 1 : failures;
            long lock = LoginLock.after(count, lockUnitMillis);
            long lockedUntil = lock == 0 ? 0 : now + lock;
            if (lock > 0) {
                jdbc.update("UPDATE login_throttle SET locked_until = greatest(locked_until, ?) WHERE email = ?",
                        lockedUntil, email);
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
        return blocking(() -> transaction.execute(status -> {
            List<Map<String, Object>> rows = jdbc.queryForList("SELECT failures, last_success_at FROM login_throttle "
                    + "WHERE email = ? FOR UPDATE", user.email());
            boolean record = rows.isEmpty() || ((Number) rows.get(0).get("failures")).intValue() > 0
                    || now - ((Number) rows.get(0).get("last_success_at")).longValue() >= SUCCESS_INTERVAL_MILLIS;
            named.update("INSERT INTO login_throttle AS t (email, last_success_at) VALUES (:email, :now) "
                    + "ON CONFLICT (email) DO UPDATE SET failures = 0, locked_until = 0, checking = greatest(0, "
                    + CHECKING + " - 1), last_success_at = " + (record ? ":now" : "t.last_success_at"),
                    Map.of("email", user.email(), "now", now, "abandoned", now - CHECK_ABANDONED_AFTER_MILLIS));
            if (record) {
                append(user.userId(), new LoginSucceededEvent(user.userId(), user.organisationId(), remoteAddress, now));
            }
            return 0L;
        })).then();
    }

    @Override
    public Mono<Void> abandoned(String email, long now) {
        return blocking(() -> named.update("UPDATE login_throttle t SET checking = greatest(0, " + CHECKING + " - 1) "
                + "WHERE t.email = :email", Map.of("email", email, "abandoned", now - CHECK_ABANDONED_AFTER_MILLIS)))
                .then();
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

    /** Rows with no failure that still counts, no lock, no check in flight and no recent success tell nothing. */
    @Override
    protected void runOnce() {
        long now = System.currentTimeMillis();
        jdbc.update("DELETE FROM login_throttle WHERE greatest(last_failure_at + ?, last_success_at + ?, locked_until, "
                + "checking_since + ?) < ?", LoginLock.FORGET_AFTER_MILLIS, SUCCESS_INTERVAL_MILLIS,
                CHECK_ABANDONED_AFTER_MILLIS, now);
    }

    private static <T> Mono<T> blocking(java.util.concurrent.Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic());
    }
}
