-- Intent feedback reports (see query-service/.../feedback/FEEDBACK.md, "Keeping reports up to date"). The intent
-- projection marks a (flow, locale) dirty in the transaction that changes its analysis input; the
-- IntentFeedbackRefresher recomputes dirty pairs in the background and stores one report per (intent, locale).

CREATE TABLE intent_feedback (
    intent_id   VARCHAR(24) NOT NULL,
    locale_id   VARCHAR(24) NOT NULL,
    flow_id     VARCHAR(24) NOT NULL,
    report      TEXT        NOT NULL, -- JSON of FeedbackAnalysis.Report.toWire()
    computed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (intent_id, locale_id)
);
CREATE INDEX intent_feedback_flow ON intent_feedback (flow_id, locale_id);

-- Every mark takes a new generation, so a refresher can tell whether the pair changed while it was computing
-- (it then discards its result). claimed_until is the lease of the refresher computing the pair (NULL: free).
CREATE SEQUENCE intent_feedback_generation;
CREATE TABLE intent_feedback_dirty (
    flow_id       VARCHAR(24) NOT NULL,
    locale_id     VARCHAR(24) NOT NULL,
    generation    BIGINT      NOT NULL,
    marked_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    claimed_until TIMESTAMPTZ,
    PRIMARY KEY (flow_id, locale_id)
);
CREATE INDEX intent_feedback_dirty_marked ON intent_feedback_dirty (marked_at);
