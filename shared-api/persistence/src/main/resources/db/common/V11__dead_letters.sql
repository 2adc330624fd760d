-- Axon's sequenced dead-letter queue (issue 37): an event a projection cannot apply is parked with the rest of its
-- sequence (a project, or an aggregate) while every other sequence goes on. Axon's JDBC queue with the columns in
-- snake_case, as the event and token tables (DeadLetterSchema in query-service .../deadletter); timestamps are
-- ISO-8601 text as Axon writes them, serialized data bytea.
CREATE TABLE dead_letter_entry (
    dead_letter_id       VARCHAR(255) NOT NULL PRIMARY KEY,
    processing_group     VARCHAR(255) NOT NULL,
    sequence_identifier  VARCHAR(255) NOT NULL,
    sequence_index       BIGINT       NOT NULL,
    message_type         VARCHAR(255) NOT NULL,
    event_identifier     VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    payload_type         VARCHAR(255) NOT NULL,
    payload_revision     VARCHAR(255),
    payload              BYTEA        NOT NULL,
    meta_data            BYTEA,
    aggregate_type       VARCHAR(255),
    aggregate_identifier VARCHAR(255),
    sequence_number      BIGINT,
    token_type           VARCHAR(255),
    token                BYTEA,
    enqueued_at          VARCHAR(255) NOT NULL,
    last_touched         VARCHAR(255),
    processing_started   VARCHAR(255),
    cause_type           VARCHAR(255),
    -- Axon's default is VARCHAR(255); a PostgreSQL message with its detail is often longer, and is cut to fit here
    cause_message        TEXT,
    diagnostics          BYTEA,
    UNIQUE (processing_group, sequence_identifier, sequence_index)
);
CREATE INDEX dead_letter_entry_group ON dead_letter_entry (processing_group);

-- What a system administrator asked for (POST /management/v2.0/projections/deadletters/{retry,evict}, command
-- service) and what became of it: a query replica takes each request, does it and records the outcome, which the
-- administrator reads on GET /management/v2.0/projections/deadletters/requests/{id}.
CREATE TABLE dead_letter_request (
    id                  VARCHAR(24)  PRIMARY KEY,
    action              TEXT         NOT NULL CHECK (action IN ('retry', 'evict')),
    processing_group    VARCHAR(255) NOT NULL,
    sequence_identifier VARCHAR(255) NOT NULL,
    status              TEXT         NOT NULL DEFAULT 'requested',
    outcome             TEXT,
    requested_by        VARCHAR(24),
    requested_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    finished_at         TIMESTAMPTZ
);
CREATE INDEX dead_letter_request_open ON dead_letter_request (requested_at) WHERE status = 'requested';

-- A rebuild applies parked events again (query-service Rebuilder): the sequences it could not apply either are left
-- out of its tables, as of the live ones, and keep their dead letters; per projection, kept with its progress.
ALTER TABLE projection_rebuild ADD COLUMN parked_skipped JSONB NOT NULL DEFAULT '{}';

-- The audit trail of parked sequences, append-only: each parking (with the organisation, trace id and cause), each
-- retry's and eviction's outcome and who asked, each rebuild that applied one. Not in audit_event: that table is a
-- projection of the event log, and a rebuild must reproduce it exactly.
CREATE TABLE dead_letter_audit (
    id                  BIGSERIAL    PRIMARY KEY,
    happened            TEXT         NOT NULL CHECK (happened IN ('parked', 'applied', 'still-parked', 'evicted', 'rebuilt')),
    processing_group    VARCHAR(255) NOT NULL,
    sequence_identifier VARCHAR(255) NOT NULL,
    organisation_id     VARCHAR(255),
    trace_id            VARCHAR(255),
    event_position      BIGINT,
    detail              TEXT,
    actor               VARCHAR(24),
    occurred_at         TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX dead_letter_audit_sequence ON dead_letter_audit (processing_group, sequence_identifier);
