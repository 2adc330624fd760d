package ai.convo.query.intent;

import ai.convo.http.media.Renderer;
import ai.convo.persistence.Backlog;
import ai.convo.query.feedback.FeedbackAnalysis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Recomputes the feedback reports of the (flow, locale) pairs the intent projection marked dirty
 * ({@code intent_feedback_dirty}), on one daemon thread, never on the event loop. Every
 * {@code app.feedback.interval} (200 ms) it works through the dirty pairs, oldest mark first:
 * <ol>
 *   <li><b>Claim</b> (one statement): lease the oldest free pair ({@code FOR UPDATE SKIP LOCKED}, so query
 *       replicas share the work) and note its generation.</li>
 *   <li><b>Read</b> all intents of the flow and its sentences in the locale, in one read-only snapshot, and run
 *       {@link FeedbackAnalysis#analyse} outside any transaction (the projection is never blocked by it).</li>
 *   <li><b>Write</b> (one transaction): lock the mark; if it is gone (flow deleted) write nothing; if its
 *       generation changed (the input changed meanwhile) discard the result and free the lease; else replace the
 *       pair's reports and delete the mark. A flow without sentences in the locale gets no rows (the list
 *       derives those reports, see {@link IntentFeedbackReads}).</li>
 * </ol>
 * A failure is logged and leaves the pair dirty; it is retried after {@link #RETRY} (a crashed replica's lease
 * expires after {@code app.feedback.lease}).
 */
@Component
class IntentFeedbackRefresher extends Backlog {

    private static final Logger log = LoggerFactory.getLogger(IntentFeedbackRefresher.class);

    static final Duration RETRY = Duration.ofSeconds(5);

    /** What a refresh did. */
    enum Outcome { NOTHING_DIRTY, WRITTEN, DISCARDED, GONE, FAILED }

    record Claim(String flowId, String localeId, long generation) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate writes;
    private final TransactionTemplate snapshot;
    private final Duration lease;
    private final Function<List<FeedbackAnalysis.IntentSentences>, Map<String, FeedbackAnalysis.Report>> analysis;

    @Autowired
    public IntentFeedbackRefresher(JdbcTemplate jdbc, PlatformTransactionManager transactions,
                                   @Value("${app.feedback.interval:200ms}") Duration interval,
                                   @Value("${app.feedback.lease:2m}") Duration lease) {
        this(jdbc, transactions, interval, lease, FeedbackAnalysis::analyse);
    }

    IntentFeedbackRefresher(JdbcTemplate jdbc, PlatformTransactionManager transactions, Duration interval, Duration lease,
                            Function<List<FeedbackAnalysis.IntentSentences>, Map<String, FeedbackAnalysis.Report>> analysis) {
        super("intent-feedback-refresher", interval);
        this.jdbc = jdbc;
        this.writes = new TransactionTemplate(transactions);
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.snapshot.setReadOnly(true);
        this.lease = lease;
        this.analysis = analysis;
    }

    /** Works through the dirty pairs one at a time; a failed pair waits for the next drain. */
    @Override
    protected boolean workOnce() {
        Outcome outcome = refreshOne();
        return outcome != Outcome.NOTHING_DIRTY && outcome != Outcome.FAILED;
    }

    // ---- one pair

    /** Claims, computes and writes one dirty pair; a compute or write failure is logged and leaves it dirty. */
    Outcome refreshOne() {
        Claim claim = claim();
        if (claim == null) {
            return Outcome.NOTHING_DIRTY;
        }
        try {
            Map<String, FeedbackAnalysis.Report> reports = compute(claim);
            return write(claim, reports);
        } catch (RuntimeException e) {
            log.warn("Computing the intent feedback of flow {} locale {} failed; it stays dirty and is retried: {}",
                    claim.flowId(), claim.localeId(), e.toString(), e);
            try {
                jdbc.update("UPDATE intent_feedback_dirty SET claimed_until = now() + make_interval(secs => ?) "
                                + "WHERE flow_id = ? AND locale_id = ? AND generation = ?",
                        (double) RETRY.toSeconds(), claim.flowId(), claim.localeId(), claim.generation());
            } catch (RuntimeException ignored) {
                // the lease expires by itself
            }
            return Outcome.FAILED;
        }
    }

    Claim claim() {
        List<Claim> claimed = jdbc.query("UPDATE intent_feedback_dirty SET claimed_until = now() + make_interval(secs => ?) "
                        + "WHERE (flow_id, locale_id) = (SELECT flow_id, locale_id FROM intent_feedback_dirty "
                        + "WHERE claimed_until IS NULL OR claimed_until < now() ORDER BY marked_at LIMIT 1 "
                        + "FOR UPDATE SKIP LOCKED) RETURNING flow_id, locale_id, generation",
                (rs, i) -> new Claim(rs.getString(1), rs.getString(2), rs.getLong(3)), (double) lease.toSeconds());
        return claimed.isEmpty() ? null : claimed.get(0);
    }

    /** The reports of the flow's intents in the locale; empty when the flow has no sentence in it. */
    private Map<String, FeedbackAnalysis.Report> compute(Claim claim) {
        List<FeedbackAnalysis.IntentSentences> input = snapshot.execute(status -> {
            Map<String, List<String>> sentences = new HashMap<>();
            jdbc.query("SELECT intent_id, text FROM sentence_view WHERE flow_id = ? AND locale_id = ?",
                    rs -> {
                        sentences.computeIfAbsent(rs.getString(1), id -> new ArrayList<>()).add(rs.getString(2));
                    }, claim.flowId(), claim.localeId());
            if (sentences.isEmpty()) {
                return List.of();
            }
            List<FeedbackAnalysis.IntentSentences> intents = new ArrayList<>();
            jdbc.query("SELECT id, name FROM intent_view WHERE flow_id = ?", rs -> {
                String id = rs.getString(1);
                intents.add(new FeedbackAnalysis.IntentSentences(id, rs.getString(2),
                        sentences.getOrDefault(id, List.of())));
            }, claim.flowId());
            return intents;
        });
        return input.isEmpty() ? Map.of() : analysis.apply(input);
    }

    private Outcome write(Claim claim, Map<String, FeedbackAnalysis.Report> reports) {
        return writes.execute(status -> {
            List<Long> current = jdbc.queryForList("SELECT generation FROM intent_feedback_dirty "
                    + "WHERE flow_id = ? AND locale_id = ? FOR UPDATE", Long.class, claim.flowId(), claim.localeId());
            if (current.isEmpty()) {
                return Outcome.GONE;
            }
            if (current.get(0) != claim.generation()) {
                jdbc.update("UPDATE intent_feedback_dirty SET claimed_until = NULL WHERE flow_id = ? AND locale_id = ?",
                        claim.flowId(), claim.localeId());
                return Outcome.DISCARDED;
            }
            jdbc.update("DELETE FROM intent_feedback WHERE flow_id = ? AND locale_id = ?", claim.flowId(), claim.localeId());
            List<Object[]> rows = new ArrayList<>(reports.size());
            reports.forEach((intentId, report) -> rows.add(new Object[] {intentId, claim.localeId(), claim.flowId(),
                    Renderer.JSON.writeValueAsString(report.toWire())}));
            if (!rows.isEmpty()) {
                jdbc.batchUpdate("INSERT INTO intent_feedback (intent_id, locale_id, flow_id, report) VALUES (?, ?, ?, ?)",
                        rows);
            }
            jdbc.update("DELETE FROM intent_feedback_dirty WHERE flow_id = ? AND locale_id = ?",
                    claim.flowId(), claim.localeId());
            return Outcome.WRITTEN;
        });
    }

}
