-- Chunk embeddings for knowledge search's vector side: derived data, computed in the background from
-- knowledge_chunk_view (ChunkEmbeddings), never from events, so neither rebuilt nor digested. A row is current while
-- chunk_version equals its chunk row's xmin (any change of the chunk makes it stale; the worker embeds it again, or
-- only takes the new version when text_md5 shows the text unchanged). No foreign key: a rebuild switches the chunk
-- table; rows whose chunk is gone are swept by the worker.
CREATE TABLE knowledge_chunk_embedding (
    chunk_id        VARCHAR(24) PRIMARY KEY,
    organisation_id VARCHAR(24) NOT NULL,
    chunk_version   BIGINT      NOT NULL,
    text_md5        TEXT        NOT NULL,
    model           TEXT        NOT NULL,
    vector          BYTEA       NOT NULL -- float32 big-endian, unit length
);
