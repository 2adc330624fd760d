package ai.convo.contract.knowledge;

/** The fields of a knowledge store PATCH. A null means "leave unchanged"; an empty description clears it. */
public record KnowledgeStorePatch(String name, String description) {
}
