-- An upload's name and its first answer (the Task record), so a retried upload of the same bytes and name into the
-- same store answers that Task again instead of creating a second source. Earlier rows have neither: never matched.
ALTER TABLE cmd_knowledge_upload ADD COLUMN file_name TEXT;
ALTER TABLE cmd_knowledge_upload ADD COLUMN answer TEXT;
