-- The position stamps (V23, V40) as functions, so an event's first write can carry its stamp in a WITH item of its
-- own statement (BatchingJdbcTemplate.setting with an expression): consecutive writes of one statement, each stamped
-- with its own event, then go in one JDBC batch instead of a round trip each. The WITH item is a data-modifying one,
-- which PostgreSQL always runs, once per statement; it inserts nothing into setting_sink, which stays empty.
CREATE UNLOGGED TABLE setting_sink (never INTEGER);

CREATE FUNCTION stamp_index_value(at BIGINT) RETURNS TEXT LANGUAGE sql VOLATILE AS $$
    SELECT set_config('app.position', coalesce(at::text, ''), true)
$$;

CREATE FUNCTION stamp_position_value(event_id VARCHAR) RETURNS TEXT LANGUAGE sql VOLATILE AS $$
    SELECT set_config('app.position',
        coalesce((SELECT global_index FROM domain_event_entry WHERE event_identifier = event_id)::text, ''), true)
$$;
