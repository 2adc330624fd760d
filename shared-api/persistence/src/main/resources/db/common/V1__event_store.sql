-- Axon's JDBC event store and token store, in snake_case (Axon creates no tables itself).
CREATE TABLE domain_event_entry (
    global_index         BIGSERIAL    PRIMARY KEY,
    event_identifier     VARCHAR(255) NOT NULL UNIQUE,
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255),
    time_stamp           VARCHAR(255) NOT NULL,
    payload_type         VARCHAR(255) NOT NULL,
    payload_revision     VARCHAR(255),
    payload              BYTEA        NOT NULL,
    meta_data            BYTEA,
    UNIQUE (aggregate_identifier, sequence_number)
);

CREATE TABLE snapshot_entry (
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255) NOT NULL,
    event_identifier     VARCHAR(255) NOT NULL UNIQUE,
    time_stamp           VARCHAR(255) NOT NULL,
    payload_type         VARCHAR(255) NOT NULL,
    payload_revision     VARCHAR(255),
    payload              BYTEA        NOT NULL,
    meta_data            BYTEA,
    PRIMARY KEY (aggregate_identifier, sequence_number)
);

CREATE TABLE token_entry (
    processor_name VARCHAR(255) NOT NULL,
    segment        INTEGER      NOT NULL,
    token          BYTEA,
    token_type     VARCHAR(255),
    time_stamp     VARCHAR(255),
    owner          VARCHAR(255),
    PRIMARY KEY (processor_name, segment)
);
