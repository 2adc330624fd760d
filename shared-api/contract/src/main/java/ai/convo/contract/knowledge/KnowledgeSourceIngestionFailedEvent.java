package ai.convo.contract.knowledge;

/** The ingestion step failed (there was nothing to ingest): the source is {@code failure}, without chunks. */
public record KnowledgeSourceIngestionFailedEvent(
        String sourceId,
        String storeId,
        String projectId,
        String organisationId,
        String reason,
        long at) {
}
