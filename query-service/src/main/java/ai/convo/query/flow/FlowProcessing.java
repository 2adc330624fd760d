package ai.convo.query.flow;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowSettingsUpdatedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import ai.convo.query.state.StateProjection;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The flow and state projections handle events of three aggregates that touch the same rows: a flow's own
 * events and its states' (flow aggregate), a project's deletion (project aggregate) and an intent's deletion
 * (intent aggregate). Sequenced per aggregate, a streaming processor could apply those in different segments out
 * of order, e.g. insert a state after its project's deletion removed the project's states. Every one of them
 * names its project, so both projections are sequenced by project: a project's events are applied in one
 * segment, in the order they were stored.
 */
@Configuration(proxyBeanMethods = false)
class FlowProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof FlowCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowSettingsUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof StateCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof StateUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof DefaultStateChangedEvent e) {
            return e.projectId();
        }
        if (payload instanceof StateDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof IntentDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof ProjectDeletedEvent e) {
            return e.projectId();
        }
        return null;
    }

    @Bean
    ConfigurerModule flowsAndStatesSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(FlowProjection.GROUP, config -> BY_PROJECT)
                .registerSequencingPolicy(StateProjection.GROUP, config -> BY_PROJECT));
    }
}
