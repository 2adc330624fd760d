-- How far each segment of each projection has got, published by the replica that holds it (every few ms while it
-- moves). Axon stores a segment's token only when a batch for it commits, or with a claim extension when it had
-- nothing to do: a replica that does not hold a segment would otherwise see an idle segment's progress late, and a
-- read there would wait for nothing. Each row is a true lower bound of the segment's progress, whoever holds it.
CREATE TABLE segment_progress (
    processor_name VARCHAR(255) NOT NULL,
    segment        INTEGER      NOT NULL,
    idx            BIGINT       NOT NULL,
    gaps           BIGINT[]     NOT NULL DEFAULT '{}',
    replica        VARCHAR(255) NOT NULL,
    updated_at     TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (processor_name, segment)
);
