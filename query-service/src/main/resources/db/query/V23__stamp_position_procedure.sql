-- The processors' stamp of app.position before each event (what keep_row_history records, V19), as a procedure:
-- a CALL answers no rows, so the stamp can travel in one statement with the event's first write instead of a
-- round trip of its own (BatchingJdbcTemplate.setting). Unknown event: '' (no history row, as before).
CREATE PROCEDURE stamp_position(event_id VARCHAR) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('app.position',
        coalesce((SELECT global_index FROM domain_event_entry WHERE event_identifier = event_id)::text, ''), true);
END
$$;
