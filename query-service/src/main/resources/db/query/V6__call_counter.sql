-- Call counter read model (see query-service/.../callcounter/CALLCOUNTER.md). Built only from
-- CallRecordsIngestedEvent, so a replay rebuilds it exactly.

-- One row per organisation and UTC day that has calls starting, calls ending, or calls in progress all day long.
-- net_delta: calls started minus calls ended that day (the running count at a day's start is the sum of
-- net_delta of all earlier days).
CREATE TABLE call_counter_day (
    organisation_id VARCHAR(24) NOT NULL,
    day             DATE        NOT NULL,
    processed_calls BIGINT      NOT NULL DEFAULT 0,
    billable_calls  BIGINT      NOT NULL DEFAULT 0,
    call_minutes    BIGINT      NOT NULL DEFAULT 0,
    max_concurrency BIGINT      NOT NULL DEFAULT 0,
    net_delta       BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (organisation_id, day)
) WITH (fillfactor = 50);

-- Per organisation and minute (Unix seconds / 60) from 2025-01-01 on: the net change of the number of calls in
-- progress at each of its 60 seconds (+1 per call starting, -1 per call ending), their sum, and the highest
-- running sum within the minute. A day's maximum is computed from its (at most 1,440) minute rows.
CREATE TABLE call_counter_minute (
    organisation_id VARCHAR(24) NOT NULL,
    minute          BIGINT      NOT NULL,
    deltas          INTEGER[]   NOT NULL,
    net             INTEGER     NOT NULL,
    max_prefix      INTEGER     NOT NULL,
    PRIMARY KEY (organisation_id, minute)
) WITH (fillfactor = 50);

-- The event parts already counted (a delivered twice event never counts twice).
CREATE TABLE call_counter_batch (
    batch_id VARCHAR(24) NOT NULL,
    part     INTEGER     NOT NULL,
    PRIMARY KEY (batch_id, part)
);
