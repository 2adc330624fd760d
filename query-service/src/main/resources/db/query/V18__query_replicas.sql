-- Live query replicas, each refreshing its row every few seconds (SegmentBalancer): how many share the segments.
CREATE TABLE query_replica (
    replica VARCHAR(255) PRIMARY KEY,
    seen_at TIMESTAMPTZ  NOT NULL
);
