package ai.convo.query.audit;

import ai.convo.persistence.Periodic;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Drops audit events and refused requests older than APP_AUDIT_RETENTION (default 0: unlimited, nothing is dropped).
 * The event log itself is never dropped: an audit event can be derived again from it.
 */
@Component
public class AuditRetention extends Periodic {

    private final JdbcTemplate jdbc;
    private final Duration retention;

    public AuditRetention(JdbcTemplate jdbc, @Value("${app.audit.retention:0s}") Duration retention) {
        super("audit-retention", Duration.ofMinutes(10));
        this.jdbc = jdbc;
        this.retention = retention;
    }

    @Override
    protected void runOnce() {
        if (retention.isZero() || retention.isNegative()) {
            return;
        }
        long before = System.currentTimeMillis() - retention.toMillis();
        jdbc.update("DELETE FROM audit_event WHERE occurred_at < ?", before);
        dropOverflowOfDropped("public");
        jdbc.update("DELETE FROM refused_request WHERE occurred_at < ?", before);
    }

    /**
     * Drops the expired audit events of the audit_event table in {@code schema} now: a rebuild applies the retention to
     * the live and the rebuilt table with one cut-off, so that both hold the same events.
     */
    public void dropExpired(String schema, long nowMillis) {
        if (!retention.isZero() && !retention.isNegative()) {
            jdbc.update("DELETE FROM " + schema + ".audit_event WHERE occurred_at < ?", nowMillis - retention.toMillis());
            dropOverflowOfDropped(schema);
        }
    }

    /** The counted rest of the audit events just dropped (an overflow row is never older than its audit event). */
    private void dropOverflowOfDropped(String schema) {
        jdbc.update("DELETE FROM " + schema + ".audit_event_overflow x WHERE NOT EXISTS (SELECT 1 FROM " + schema
                + ".audit_event a WHERE a.organisation_id = x.organisation_id AND a.correlation_id = x.correlation_id)");
    }
}
