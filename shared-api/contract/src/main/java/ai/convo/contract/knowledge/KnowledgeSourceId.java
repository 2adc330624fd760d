package ai.convo.contract.knowledge;

import ai.convo.contract.common.Ids;

/** Id of a Knowledge Source; validates itself. {@link #toString()} is the bare id, which Axon uses to route commands. */
public record KnowledgeSourceId(String value) {
    public KnowledgeSourceId {
        Ids.require("sourceId", value);
    }

    public static KnowledgeSourceId of(String value) {
        return new KnowledgeSourceId(value);
    }

    public static KnowledgeSourceId generate() {
        return new KnowledgeSourceId(Ids.newId());
    }

    @Override
    public String toString() {
        return value;
    }
}
