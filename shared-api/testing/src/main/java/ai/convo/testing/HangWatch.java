package ai.convo.testing;

import io.r2dbc.pool.ConnectionPool;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Mono;

/**
 * Evidence for a request that gets no answer: what the database is doing, whatever the caller adds and a thread
 * dump, on stdout and in target/hang-dumps (jstack on a surefire fork kills the fork, so the dump is taken from
 * inside).
 */
public final class HangWatch {

    private HangWatch() {
    }

    static final Duration UNANSWERED = Duration.ofSeconds(15);

    /**
     * For a test client: a request without an answer after {@link #UNANSWERED} is reported (the database's state,
     * whatever the caller adds, a thread dump) and fails. It is not sent again: a request that gets no answer is a
     * fault to see, not to hide (the one these reports once showed was Reactor Netty 1.3.6 no longer reading a
     * keep-alive connection, reactor-netty #4361; docs/design.md, "Netty transport").
     */
    public static ExchangeFilterFunction reportUnanswered(Supplier<String> diagnostics) {
        return reportUnanswered(UNANSWERED, diagnostics);
    }

    static ExchangeFilterFunction reportUnanswered(Duration after, Supplier<String> diagnostics) {
        return (request, next) -> {
            String what = request.method() + " " + request.url();
            return next.exchange(request).timeout(after, Mono.defer(() -> {
                report(what, after.toSeconds(), diagnostics);
                return Mono.error(new AssertionError("No answer after " + after.toSeconds() + " s: " + what
                        + " (the report above has the database's state and a thread dump)"));
            }));
        };
    }

    /** The service's R2DBC pool, and the sessions on its database: state, wait and last statement. */
    public static String databaseState(ConnectionPool pool, DataSource dataSource) {
        StringBuilder out = new StringBuilder();
        pool.getMetrics().ifPresent(m -> out.append("r2dbc pool: acquired ").append(m.acquiredSize())
                .append(", idle ").append(m.idleSize()).append(", pending ").append(m.pendingAcquireSize())
                .append(", max ").append(m.getMaxAllocatedSize()).append('\n'));
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pid, state, wait_event_type, wait_event, now() - state_change, "
                     + "left(query, 200) FROM pg_stat_activity WHERE datname = current_database()")) {
            while (rs.next()) {
                out.append("pg ").append(rs.getInt(1)).append(' ').append(rs.getString(2)).append(' ')
                        .append(rs.getString(3)).append('/').append(rs.getString(4)).append(" for ")
                        .append(rs.getString(5)).append(": ").append(rs.getString(6)).append('\n');
            }
        } catch (SQLException e) {
            out.append("(database activity unavailable: ").append(e.getMessage()).append(")\n");
        }
        return out.toString();
    }

    static void report(String what, long seconds, Supplier<String> extra) {
        StringBuilder out = new StringBuilder("==== HANG: no answer after " + seconds + " s: " + what + " at "
                + Instant.now() + "\n");
        try {
            out.append(extra.get()).append('\n');
        } catch (RuntimeException e) {
            out.append("(diagnostics failed: ").append(e).append(")\n");
        }
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                out.append(" on ").append(info.getLockName());
            }
            if (info.getLockOwnerName() != null) {
                out.append(" owned by ").append(info.getLockOwnerName());
            }
            out.append('\n');
            for (StackTraceElement element : info.getStackTrace()) {
                out.append("    at ").append(element).append('\n');
            }
        }
        System.out.println(out);
        try {
            Path dir = Path.of("target", "hang-dumps");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("hang-" + System.currentTimeMillis() + ".txt"), out);
        } catch (Exception e) {
            System.out.println("(could not write the hang dump file: " + e + ")");
        }
    }
}
