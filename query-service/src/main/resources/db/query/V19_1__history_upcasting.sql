-- The resource history serves payloads in their current shape: what it reads of the stored event (its payload type
-- and revision, aggregate, timestamp and metadata) so HistoryQueryController can pass each payload through the
-- upcaster chain, as the event log does. Same columns as before, these appended (CREATE OR REPLACE VIEW may only add).
CREATE OR REPLACE VIEW event_history_view AS
SELECT l.organisation_id, l.position, l.global_index, l.id, l.resource_type, l.resource_id, l.project_id, l.event_type,
       l.occurred_at, l.actor_id, u.email AS actor_email,
       convert_from(e.payload, 'UTF8')::jsonb - 'keyHash' - 'passwordHash' - 'accessToken' - 'refreshToken' - 'cipher'
           AS payload,
       e.payload_type, e.payload_revision, e.type AS aggregate_type, e.aggregate_identifier, l.sequence_number,
       e.time_stamp, e.meta_data
FROM event_log l
JOIN domain_event_entry e ON e.global_index = l.global_index
LEFT JOIN identity_user u ON u.id = l.actor_id;
