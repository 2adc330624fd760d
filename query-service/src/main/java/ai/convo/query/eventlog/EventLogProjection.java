package ai.convo.query.eventlog;

import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.TrackedEventMessage;
import ai.convo.query.readmodel.Rebuilding;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The organisation's log (event_log) and audit trail (audit_event), from every event; plain code a test can feed
 * events. Sequenced per organisation (EventLogConfiguration), so one thread numbers an organisation's events and
 * its positions rise in the order their rows commit. The events of one command share its correlation id and make
 * one audit event: a primary-locale switch (an update and a demotion) is one patch.
 */
@Component
@ProcessingGroup(EventLogProjection.GROUP)
public class EventLogProjection {

    public static final String GROUP = "eventlog";
    /** At most this many other resources are listed in an audit event's payload.alsoChanged; the rest are counted. */
    static final int ALSO_CHANGED_MAX = 100;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The audit row's upsert (or the event's overflow row) after a CTE {@code l} of the log row's position. */
    static final String AUDIT = "a AS (INSERT INTO audit_event (id, organisation_id, correlation_id, position, type, action_type, "
            + "user_id, project_id, resource_type, resource_id, chain, payload, occurred_at) "
            + "SELECT lpad(to_hex(?::bigint), 8, '0') || lpad(to_hex(l.position), 16, '0'), ?, ?, l.position, "
            + "?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ? FROM l "
            + "ON CONFLICT (organisation_id, correlation_id) DO UPDATE SET "
            + "payload = CASE WHEN audit_event.resource_id = EXCLUDED.resource_id "
            + "  THEN audit_event.payload || EXCLUDED.payload "
            + "  ELSE jsonb_set(audit_event.payload, '{alsoChanged}', "
            + "    coalesce(audit_event.payload -> 'alsoChanged', '[]'::jsonb) || jsonb_build_array("
            + "    jsonb_build_object('elementType', EXCLUDED.resource_type, 'elementId', EXCLUDED.resource_id, "
            + "    'event', ?::text))) END, "
            + "type = CASE WHEN audit_event.action_type IS NULL AND EXCLUDED.action_type IS NOT NULL "
            + "  THEN EXCLUDED.type ELSE audit_event.type END, "
            + "chain = CASE WHEN audit_event.action_type IS NULL AND EXCLUDED.action_type IS NOT NULL "
            + "  THEN EXCLUDED.chain ELSE audit_event.chain END, "
            + "resource_type = CASE WHEN audit_event.action_type IS NULL AND EXCLUDED.action_type IS NOT NULL "
            + "  THEN EXCLUDED.resource_type ELSE audit_event.resource_type END, "
            + "resource_id = CASE WHEN audit_event.action_type IS NULL AND EXCLUDED.action_type IS NOT NULL "
            + "  THEN EXCLUDED.resource_id ELSE audit_event.resource_id END, "
            + "action_type = coalesce(audit_event.action_type, EXCLUDED.action_type) "
            + "WHERE audit_event.resource_id = EXCLUDED.resource_id "
            + "  OR (audit_event.action_type IS NULL AND EXCLUDED.action_type IS NOT NULL) "
            + "  OR jsonb_array_length(coalesce(audit_event.payload -> 'alsoChanged', '[]'::jsonb)) < "
            + ALSO_CHANGED_MAX + " RETURNING 1) "
            + "INSERT INTO audit_event_overflow (organisation_id, correlation_id, position) "
            + "SELECT ?, ?, l.position FROM l WHERE NOT EXISTS (SELECT 1 FROM a)";

    private final BatchingJdbcTemplate jdbc;

    public EventLogProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Every event. One of no aggregate (a sign-in) arrives from the store as a domain event of its own id with
     * sequence 0, and from this process's cache as a plain message: both give the same row.
     */
    @EventHandler
    public void on(Object payload, EventMessage<?> message) {
        String aggregateId = message instanceof DomainEventMessage<?> domain ? domain.getAggregateIdentifier()
                : message.getIdentifier();
        long sequence = message instanceof DomainEventMessage<?> domain ? domain.getSequenceNumber() : 0L;
        EventFacts facts = EventFacts.of(payload, aggregateId);
        long occurredAt = message.getTimestamp().toEpochMilli();
        // The next position of the organisation, from the primary key's index. Not a counter row updated per event:
        // its dead versions pile up while any long transaction runs, and every update walks them. The event's global
        // index is looked up by its id: the tracking token's position is the furthest index the stream has seen,
        // which for an event that fills a gap (committed after a later one) is another event's index.
        // A position is a public identifier (followers resume from it), decided once, when the log first saw the
        // event: a rebuild (which writes into a copy of event_log beside public.event_log) keeps the one given then.
        String insert = "INSERT INTO event_log (organisation_id, position, global_index, id, "
                + "project_id, resource_type, resource_id, sequence_number, event_type, occurred_at, actor_id) "
                + "SELECT ?, coalesce((SELECT k.position FROM public.event_log k WHERE k.global_index = g.gi), "
                + "(SELECT coalesce(max(position), 0) + 1 FROM event_log WHERE organisation_id = ?)), g.gi, "
                + "?, ?, ?, ?, ?, ?, ?, ? FROM g";
        String event = "WITH g AS (SELECT (SELECT global_index FROM domain_event_entry WHERE event_identifier = ?) AS gi)";
        Object eventKey = message.getIdentifier();
        EventLogLoad load = null;
        if (Rebuilding.now() && message instanceof TrackedEventMessage<?> tracked
                && tracked.trackingToken().position().isPresent()) {
            // A rebuild reads each event with a token of its own index: no lookup by its id.
            event = "WITH g AS (SELECT ?::bigint AS gi)";
            eventKey = tracked.trackingToken().position().getAsLong();
            // and loads the transaction's rows at once (null outside a transaction: then as the live processors do)
            load = jdbc.folded(this, () -> new EventLogLoad(jdbc, JSON, AUDIT));
        } else if (Rebuilding.now()) {
            // what a rebuild's load holds goes first: this event's position follows those rows
            EventLogLoad held = jdbc.folded(this, () -> new EventLogLoad(jdbc, JSON, AUDIT));
            if (held != null) {
                held.write();
            }
        } else {
            // A live batch loads its rows the same way, the events' global indexes looked up together by their ids
            // (a far-behind processor's batches are full; at the head a batch is an event or a few).
            load = jdbc.folded(this, () -> new EventLogLoad(jdbc, JSON, AUDIT));
            if (load != null) {
                eventKey = EventLogLoad.UNKNOWN_INDEX;
            }
        }
        Object[] log = {eventKey, facts.organisationId(), facts.organisationId(), message.getIdentifier(),
                facts.projectId(), facts.resourceType(), facts.resourceId(), sequence,
                EventFacts.typeName(payload.getClass()), occurredAt, facts.actorId()};
        if (facts.actorId() == null) {
            // the system's own work (task progress, ingestion): in the log, not an audit event of a user
            if (load != null) {
                load.add(new EventLogLoad.Event((Long) eventKey, facts.organisationId(), message.getIdentifier(),
                        facts.projectId(), facts.resourceType(), facts.resourceId(), sequence,
                        EventFacts.typeName(payload.getClass()), occurredAt, null, null, null, null, null, null));
                return;
            }
            jdbc.write(event + " " + insert, log);
            return;
        }
        // The trace id is the request's command, also on what event handlers did because of it (an intent's children
        // promoted when it is deleted), so a request is one audit event; the correlation id names only the parent.
        Object trace = message.getMetaData().getOrDefault("traceId", message.getMetaData().get("correlationId"));
        String correlationId = trace == null ? message.getIdentifier() : trace.toString();
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = JSON.convertValue(payload, Map.class);
        Map<String, Object> shown = EventFacts.auditPayload(fields);
        String chain = JSON.writeValueAsString(facts.chain());
        if (load != null) {
            load.add(new EventLogLoad.Event((Long) eventKey, facts.organisationId(), message.getIdentifier(),
                    facts.projectId(), facts.resourceType(), facts.resourceId(), sequence,
                    EventFacts.typeName(payload.getClass()), occurredAt, facts.actorId(), correlationId,
                    facts.auditType(), facts.actionType(), chain, shown));
            return;
        }
        String payloadJson = JSON.writeValueAsString(shown);
        // One statement with the log row, whose position makes the audit id: 24 lowercase hex, the second it happened,
        // then the organisation's log position of the command's first event (unique within the organisation, in the
        // order of the log, the same again after a rebuild). One statement, so the writes of a batch of
        // events go in one round trip. A later event of the same request adds what it changed (to the payload when it
        // is the same resource, else as alsoChanged); one with a named action (a snapshot request after its task's
        // creation) names the event. Past ALSO_CHANGED_MAX other resources the row is left alone and the event is one
        // row of audit_event_overflow (counted at read time): each event costs the same, however large its request.
        Object[] audit = {occurredAt / 1000, facts.organisationId(), correlationId, facts.auditType(),
                facts.actionType(), facts.actorId(), facts.projectId(), facts.resourceType(), facts.resourceId(), chain,
                payloadJson, occurredAt, EventFacts.typeName(payload.getClass())};
        Object[] args = new Object[log.length + audit.length + 2];
        System.arraycopy(log, 0, args, 0, log.length);
        System.arraycopy(audit, 0, args, log.length, audit.length);
        args[args.length - 2] = facts.organisationId();
        args[args.length - 1] = correlationId;
        jdbc.write(event + ", l AS (" + insert + " RETURNING position), " + AUDIT, args);
    }
}
