-- The processors' stamp of app.position when the event's global index is known already: PositionStamp looks up the
-- indexes of a batch's events in one statement, so no event needs a lookup of its own (stamp_position, V23, stays
-- for an event handled alone). NULL (an event not in the store): '', no history row, as stamp_position does.
CREATE PROCEDURE stamp_index(at BIGINT) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('app.position', coalesce(at::text, ''), true);
END
$$;
