package ai.convo.query.intent;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowIntentsTrainedEvent;
import ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The intent projection handles events of several aggregates (flows, intents, projects) that touch the same
 * rows: a flow's or project's deletion removes intents, an intent's deletion detaches other intents. Every one
 * of those events names its project, so the projection is sequenced by project: all events of a project are
 * applied in one segment, in order, and a late intent event can never resurrect a row of a deleted flow.
 */
@Configuration(proxyBeanMethods = false)
class IntentProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof IntentCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof IntentUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof IntentDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof SentenceCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof SentenceUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof SentenceDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowIntentsTrainedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowIntentsTrainingRestoredEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof ProjectDeletedEvent e) {
            return e.projectId();
        }
        return null;
    }

    @Bean
    ConfigurerModule intentsSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(IntentProjection.GROUP, config -> BY_PROJECT));
    }
}
