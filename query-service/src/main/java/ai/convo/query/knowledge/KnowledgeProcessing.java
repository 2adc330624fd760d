package ai.convo.query.knowledge;

import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreUpdatedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stores and sources are their own aggregates, but a store's deletion (and its project's) decides over its
 * sources. Sequencing the projection by project keeps all of a project's knowledge events in one segment, in
 * order, so a source event is never applied after (and never resurrects a row of) its store's deletion.
 */
@Configuration(proxyBeanMethods = false)
class KnowledgeProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof KnowledgeStoreCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeStoreUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeStoreDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeSourceCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeSourceUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeSourceIngestedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeSourceIngestionFailedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeSourceDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeChunkCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeChunkUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof KnowledgeChunkDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof ProjectCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof ProjectDeletedEvent e) {
            return e.projectId();
        }
        return null;
    }

    @Bean
    ConfigurerModule knowledgeSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(KnowledgeProjection.GROUP, config -> BY_PROJECT));
    }
}
