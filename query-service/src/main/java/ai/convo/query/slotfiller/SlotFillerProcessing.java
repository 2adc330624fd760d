package ai.convo.query.slotfiller;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Slot fillers are their own aggregates, but their flow's creation and deletion (and their project's) matter to
 * them. Sequenced by project, a project's events are applied in one segment in the order they were stored, so a
 * slot filler event can never be applied after (and resurrect a row of) its flow's deletion.
 */
@Configuration(proxyBeanMethods = false)
class SlotFillerProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_PROJECT = event -> {
        String project = projectOf(event.getPayload());
        return project != null ? project : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    };

    static String projectOf(Object payload) {
        if (payload instanceof SlotFillerCreatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof SlotFillerUpdatedEvent e) {
            return e.projectId();
        }
        if (payload instanceof SlotFillerDeletedEvent e) {
            return e.projectId();
        }
        if (payload instanceof FlowCreatedEvent e) {
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
    ConfigurerModule slotFillersSequencedByProject() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(SlotFillerProjection.GROUP, config -> BY_PROJECT));
    }
}
