package ai.convo.command.knowledge;

import ai.convo.contract.common.DomainException;
import ai.convo.command.web.Clock;
import ai.convo.contract.knowledge.CompleteKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.SourceStatus;
import ai.convo.contract.knowledge.SourceType;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The system side of a source's status for sources created with inline data (a simulated ingestion; uploads and
 * url sources with a URL are ingested by their Tasks): an ingestion worker. It is a streaming processor of the
 * command service, so it runs after the source's creation committed, survives restarts (its token is stored) and
 * shares work between replicas by segment. For each source created {@code ingesting} it sends the completion
 * command, which chunks the source's data and sets {@code ready} with its chunk count, or {@code failure} when
 * there is nothing to ingest. The command runs in the processor's transaction, so the outcome and the token
 * commit together, and the aggregate ignores a repeated completion.
 */
@Component
@ProcessingGroup(KnowledgeIngestion.GROUP)
// Operators may run ingestion on some replicas only; it is on unless switched off.
@ConditionalOnProperty(name = "app.knowledge.ingestion.enabled", havingValue = "true", matchIfMissing = true)
public class KnowledgeIngestion {

    public static final String GROUP = "knowledge-ingestion";

    private final CommandGateway commands;
    private final org.springframework.jdbc.core.JdbcTemplate jdbc;

    public KnowledgeIngestion(CommandGateway commands, org.springframework.jdbc.core.JdbcTemplate jdbc) {
        this.commands = commands;
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(KnowledgeSourceCreatedEvent event) {
        if (!SourceStatus.INGESTING.code().equals(event.status())) {
            return;
        }
        // A url source with a URL is fetched and ingested by its task (ProcessKnowledgeSourceUrlWork).
        if (SourceType.URL.code().equals(event.type()) && event.data() != null
                && event.data().get("url") instanceof String) {
            return;
        }
        // An uploaded file's source is ingested by its task (ProcessKnowledgeSourceFileWork), not from its data.
        if (!jdbc.queryForList("SELECT 1 FROM cmd_knowledge_upload WHERE source_id = ?", Integer.class,
                event.sourceId()).isEmpty()) {
            return;
        }
        try {
            commands.sendAndWait(new CompleteKnowledgeSourceIngestionCommand(KnowledgeSourceId.of(event.sourceId()),
                    Clock.nowSeconds()));
        } catch (DomainException deletedMeanwhile) {
            // The client deleted the source while it was being ingested: nothing left to ingest.
            if (deletedMeanwhile.kind() != DomainException.Kind.NOT_FOUND) {
                throw deletedMeanwhile;
            }
        }
    }
}
