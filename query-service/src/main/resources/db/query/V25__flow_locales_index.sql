-- Every new intent marks its flow dirty in each locale the flow has sentences in (IntentProjection.markFlowDirty).
-- Finding those locales read all of the flow's intent_sentence_count rows, so an import of n intents read n²/2 rows
-- (10,000 intents: 50 million) and the intents projection crawled. With (flow_id, locale_id) it skips from locale to
-- locale through the index: a handful of probes per intent. The index on flow_id alone is then redundant.
CREATE INDEX intent_sentence_count_flow_locale ON intent_sentence_count (flow_id, locale_id);
DROP INDEX intent_sentence_count_flow;
