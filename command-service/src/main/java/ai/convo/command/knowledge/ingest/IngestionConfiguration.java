package ai.convo.command.knowledge.ingest;

import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The document reader's limits; operators may lower them (or raise the time on slow machines). */
@Configuration(proxyBeanMethods = false)
class IngestionConfiguration {

    @Bean
    DocumentText documentText(@Value("${app.knowledge.max-pages:2000}") int maxPages,
                              @Value("${app.knowledge.extraction-timeout:60s}") Duration timeout) {
        DocumentText.Limits limits = DocumentText.Limits.DEFAULT;
        return new DocumentText(new DocumentText.Limits(limits.maxBytes(), maxPages, limits.maxChars(), timeout,
                limits.pdfMemoryBytes()));
    }
}
