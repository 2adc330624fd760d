-- Snapshot packages (the official client's packageSnapshot / composeSnapshotDownloadLink / uploadSnapshotPackage).

-- The package of a snapshot, built by its packageSnapshot task; removed with the snapshot.
CREATE TABLE cmd_snapshot_package (
    snapshot_id VARCHAR(24) PRIMARY KEY,
    package     BYTEA       NOT NULL,
    packaged_at BIGINT      NOT NULL
);

-- An uploaded package's content, checked and waiting for its uploadSnapshotPackage task to make it a snapshot.
CREATE TABLE cmd_snapshot_upload (
    task_id     VARCHAR(24) PRIMARY KEY,
    name        TEXT        NOT NULL,
    description TEXT        NOT NULL,
    resources   TEXT        NOT NULL,
    content     BYTEA       NOT NULL
);

-- Keys the services sign with (packages, download links): made once, on first use, shared by every replica.
CREATE TABLE cmd_signing_key (
    name VARCHAR(40) PRIMARY KEY,
    key  BYTEA       NOT NULL
);
