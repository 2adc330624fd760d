-- Read-your-writes for feedback reports: a mark remembers the global position of the first change it has not yet
-- analysed (kept when the mark is renewed), so a read that must reflect position P waits only for marks at or
-- below P. Marks from before this column say 0: every such read waits for them.
ALTER TABLE intent_feedback_dirty ADD COLUMN first_position BIGINT NOT NULL DEFAULT 0;
