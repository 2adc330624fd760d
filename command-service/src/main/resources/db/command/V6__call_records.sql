-- Call counter, write side: the callIds each organisation has used, so that a record counts once however often
-- it is sent. Claimed by the ingest command itself, in its own transaction (INSERT ... ON CONFLICT DO NOTHING
-- RETURNING tells which records are new); the primary key settles concurrent batches. batch_id names the batch
-- (aggregate) whose events carry the record.
CREATE TABLE cmd_call_record_id (
    organisation_id VARCHAR(24) NOT NULL,
    call_id         TEXT        NOT NULL,
    batch_id        VARCHAR(24) NOT NULL,
    PRIMARY KEY (organisation_id, call_id)
);
