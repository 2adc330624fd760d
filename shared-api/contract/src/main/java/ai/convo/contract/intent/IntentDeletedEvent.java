package ai.convo.contract.intent;

/** An intent is gone with its sentences; states of its flow no longer name it. */
public record IntentDeletedEvent(String intentId, String flowId, String projectId, String organisationId,
                                 String deletedBy, long deletedAt) {
}
