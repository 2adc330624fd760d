package ai.convo.query.function;

import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Functions are their own aggregates, but a project's creation and deletion also matter to them. Sequencing the function
 * projection by project keeps a project's events in one segment, in order, so a function event can never be
 * applied after (and resurrect a row of) its project's deletion.
 */
@Configuration(proxyBeanMethods = false)
class FunctionProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof FunctionCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FunctionUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FunctionDeletedEvent e) {
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
    ConfigurerModule functionsSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(FunctionProjection.GROUP, config -> BY_PROJECT));
    }
}
