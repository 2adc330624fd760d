package ai.convo.contract.knowledge;

import ai.convo.contract.common.Ids;

/** Id of a Knowledge Store; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record KnowledgeStoreId(String value) {
    public KnowledgeStoreId {
        Ids.require("knowledgeStoreId", value);
    }

    public static KnowledgeStoreId of(String value) {
        return new KnowledgeStoreId(value);
    }

    public static KnowledgeStoreId generate() {
        return new KnowledgeStoreId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
