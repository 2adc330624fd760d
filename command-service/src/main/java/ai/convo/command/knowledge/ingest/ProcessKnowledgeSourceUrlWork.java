package ai.convo.command.knowledge.ingest;

import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import ai.convo.http.outbound.GuardedFetch;
import java.net.URI;
import java.net.URISyntaxException;
import org.springframework.stereotype.Component;

/**
 * The processKnowledgeSourceUrl task: a url source's document fetched through {@link GuardedFetch} (no private,
 * loopback or link-local address on any hop unless the operator allows the host; bytes, time and redirects bounded),
 * then ingested exactly as an upload by {@link SourceIngestion}, its type told from the content. Steps: fetch,
 * extract, chunk.
 */
@Component
public class ProcessKnowledgeSourceUrlWork implements TaskWork {

    public static final String TYPE = "processKnowledgeSourceUrl";

    private final SourceIngestion ingestion;
    private final KnowledgeUrlFetch fetch;

    ProcessKnowledgeSourceUrlWork(SourceIngestion ingestion, KnowledgeUrlFetch fetch) {
        this.ingestion = ingestion;
        this.fetch = fetch;
    }

    @Override
    public String type() {
        return TYPE;
    }

    /** Its organisation's other ingestions wait in the queue, not on a runner thread at the organisation's parse slot. */
    @Override
    public boolean onePerOrganisation() {
        return true;
    }

    @Override
    public void run(TaskContext context) {
        String sourceId = String.valueOf(context.parameters().get("sourceId"));
        String url = String.valueOf(context.parameters().get("url"));
        ingestion.run(context, sourceId, true, () -> {
            try {
                return fetch.fetch().get(new URI(url)).body();
            } catch (URISyntaxException e) {
                throw new GuardedFetch.Failed("The URL " + url + " is not a valid URL.");
            }
        }, "create the source again");
    }
}
