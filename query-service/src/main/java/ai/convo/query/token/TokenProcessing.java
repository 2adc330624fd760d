package ai.convo.query.token;

import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tokens are their own aggregates, but a project's creation and deletion also change them. Sequencing the
 * token projection by project keeps all of a project's events in one segment, in order, so a token event
 * can never be applied after (and resurrect a row of) its project's deletion.
 */
@Configuration(proxyBeanMethods = false)
class TokenProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof TokenCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof TokenUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof TokenDeletedEvent e) {
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
    ConfigurerModule tokensSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(TokenProjection.GROUP, config -> BY_PROJECT));
    }
}
