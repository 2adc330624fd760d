package ai.convo.command.knowledge.ingest;

import ai.convo.http.outbound.GuardedFetch;
import ai.convo.http.outbound.OutboundGuard;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The document reader's limits and the URL fetch's; operators may lower them (or raise the time on slow machines). */
@Configuration(proxyBeanMethods = false)
class IngestionConfiguration {

    @Bean
    DocumentText documentText(@Value("${app.knowledge.max-pages:2000}") int maxPages,
                              @Value("${app.knowledge.extraction-timeout:60s}") Duration timeout,
                              @Value("${app.knowledge.parallel-extractions:2}") int parallel) {
        DocumentText.Limits limits = DocumentText.Limits.DEFAULT;
        return new DocumentText(new DocumentText.Limits(limits.maxBytes(), maxPages, limits.maxChars(), timeout,
                limits.pdfMemoryBytes(), parallel));
    }

    /** url sources: at most a file's bytes, within the time, over at most the redirects; internal hosts only if allowed. */
    @Bean
    KnowledgeUrlFetch knowledgeUrlFetch(DocumentText documents,
                                        @Value("${app.knowledge.url.allowed-hosts:}") String allowedHosts,
                                        @Value("${app.knowledge.url.timeout:30s}") Duration timeout,
                                        @Value("${app.knowledge.url.max-redirects:5}") int maxRedirects) {
        return new KnowledgeUrlFetch(new GuardedFetch(OutboundGuard.allowing(allowedHosts), timeout,
                (int) documents.limits().maxBytes(), maxRedirects));
    }
}
