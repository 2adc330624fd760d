package ai.convo.contract.knowledge;

import ai.convo.contract.common.Ids;

/** Id of a Knowledge Chunk; validates itself. A chunk lives in its source's aggregate, which commands target. */
public record KnowledgeChunkId(String value) {
    public KnowledgeChunkId {
        Ids.require("chunkId", value);
    }

    public static KnowledgeChunkId of(String value) {
        return new KnowledgeChunkId(value);
    }

    public static KnowledgeChunkId generate() {
        return new KnowledgeChunkId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
