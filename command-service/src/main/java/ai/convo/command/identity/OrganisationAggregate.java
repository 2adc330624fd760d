package ai.convo.command.identity;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.identity.OrganisationCreatedEvent;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/** An organisation: the tenant that owns projects and users. Created with its first user. */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class OrganisationAggregate {

    @AggregateIdentifier
    private String organisationId;

    protected OrganisationAggregate() {
        // for Axon
    }

    OrganisationAggregate(String organisationId, String name, String createdBy, long at) {
        apply(new OrganisationCreatedEvent(organisationId, name, createdBy, at));
    }

    @EventSourcingHandler
    void on(OrganisationCreatedEvent event) {
        organisationId = event.organisationId();
    }
}
