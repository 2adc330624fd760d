-- generateNluScores (issue 40) names its flow and locale by referenceId: the lookups keep it, filled here from the
-- creation events already in the log (a referenceId never changes).
ALTER TABLE cmd_flow_lookup ADD COLUMN reference_id TEXT;
ALTER TABLE cmd_locale_lookup ADD COLUMN reference_id TEXT;

UPDATE cmd_flow_lookup l SET reference_id = e.reference_id
FROM (SELECT aggregate_identifier AS flow_id, convert_from(payload, 'UTF8')::jsonb ->> 'referenceId' AS reference_id
      FROM domain_event_entry WHERE payload_type = 'ai.convo.contract.flow.FlowCreatedEvent') e
WHERE e.flow_id = l.flow_id;

UPDATE cmd_locale_lookup l SET reference_id = e.reference_id
FROM (SELECT convert_from(payload, 'UTF8')::jsonb ->> 'localeId' AS locale_id,
             convert_from(payload, 'UTF8')::jsonb ->> 'referenceId' AS reference_id
      FROM domain_event_entry WHERE payload_type = 'ai.convo.contract.locale.LocaleCreatedEvent') e
WHERE e.locale_id = l.locale_id;

CREATE INDEX cmd_flow_lookup_reference ON cmd_flow_lookup (project_id, reference_id);
CREATE INDEX cmd_locale_lookup_reference ON cmd_locale_lookup (project_id, reference_id);
