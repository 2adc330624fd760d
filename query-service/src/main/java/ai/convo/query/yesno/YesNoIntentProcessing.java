package ai.convo.query.yesno;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.yesno.YesNoIntentResetEvent;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoSentenceCreatedEvent;
import ai.convo.contract.yesno.YesNoSentenceDeletedEvent;
import ai.convo.contract.yesno.YesNoSentenceUpdatedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Yes/no intents are their own aggregates, but their locale's creation, language and deletion decide their rows.
 * Sequenced by project, a project's events are applied in the order they were stored.
 */
@Configuration(proxyBeanMethods = false)
class YesNoIntentProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof YesNoIntentSeededEvent e) {
            return e.projectId();
        }
        if (payload instanceof YesNoIntentUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof YesNoIntentResetEvent e) {
            return e.projectId();
        }
        if (payload instanceof YesNoSentenceCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof YesNoSentenceUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof YesNoSentenceDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof LocaleCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof LocaleUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof LocaleDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof ProjectDeletedEvent e) {
            return e.projectId();
        }
        return null;
    }

    @Bean
    ConfigurerModule yesNoIntentsSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(YesNoIntentProjection.GROUP, config -> BY_PROJECT));
    }
}
