package ai.convo.persistence.upcasting;

import java.util.List;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * Every upcaster of the contract's events, in both services (imported by PersistenceConfiguration). One bean per
 * step; the steps of one event type in revision order ({@code @Order}: a step after the one that produces its input
 * revision). See docs/events.md.
 */
@Configuration(proxyBeanMethods = false)
public class EventUpcasters {

    /** FunctionUpdatedEvent 1 (no revision) to 2: disabled became isDisabled. */
    @Bean
    @Order(100)
    public EventUpcaster functionUpdatedEventRevision2() {
        return new FunctionUpdatedEventRevision2();
    }

    /** The chain of every EventUpcaster bean (a test may add its own), for the event store and for raw readers. */
    @Bean
    public StoredEvents storedEvents(ObjectProvider<EventUpcaster> upcasters,
                                     @Qualifier("eventSerializer") Serializer eventSerializer) {
        List<EventUpcaster> ordered = upcasters.orderedStream().toList();
        return new StoredEvents(ordered, eventSerializer);
    }
}
