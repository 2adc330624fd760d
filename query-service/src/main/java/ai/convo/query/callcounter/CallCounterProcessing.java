package ai.convo.query.callcounter;

import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every batch is its own aggregate, but the counters are per organisation: sequencing the projection by
 * organisation keeps all of an organisation's batches in one segment, so two segments never update the same
 * organisation's days at once (the store's advisory lock stays uncontended).
 */
@Configuration(proxyBeanMethods = false)
class CallCounterProcessing {

    static final SequencingPolicy<EventMessage<?>> BY_ORGANISATION = event ->
            event.getPayload() instanceof CallRecordsIngestedEvent ingested
                    ? ingested.organisationId()
                    : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);

    @Bean
    ConfigurerModule callCountersSequencedByOrganisation() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(CallCounterProjection.GROUP, config -> BY_ORGANISATION));
    }
}
