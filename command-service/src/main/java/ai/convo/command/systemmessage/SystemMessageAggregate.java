package ai.convo.command.systemmessage;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.systemmessage.CreateSystemMessageCommand;
import ai.convo.contract.systemmessage.SystemMessageCreatedEvent;
import ai.convo.contract.systemmessage.SystemMessageRecord;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A System message: a banner for every user of the installation, shown while {@code until} lies in the future.
 * Only a system administrator creates one. Messages are never changed; a newer one takes precedence.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class SystemMessageAggregate {

    @AggregateIdentifier
    private String systemMessageId;

    protected SystemMessageAggregate() {
        // for Axon
    }

    @CommandHandler
    public SystemMessageAggregate(CreateSystemMessageCommand command) {
        requireSystemAdministrator(command.actor().role());
        requireMessage(command.message());
        requireUntil(command.until());
        apply(new SystemMessageCreatedEvent(command.systemMessageId().value(), command.message(), command.until(),
                command.showOnLogin(), command.actor().userId(), command.at()));
    }

    // ---- guard clauses

    private static void requireSystemAdministrator(Role role) {
        if (role != Role.SYSTEM_ADMIN) {
            throw DomainException.forbidden("Only a system administrator can create system messages.");
        }
    }

    private static void requireMessage(String message) {
        if (message == null || message.isBlank() || message.length() > SystemMessageRecord.MAX_MESSAGE_LENGTH) {
            throw DomainException.invalid("message", "message must be a string of 1 to "
                    + SystemMessageRecord.MAX_MESSAGE_LENGTH + " characters (not blank).");
        }
    }

    private static void requireUntil(long until) {
        if (until < 0 || until > SystemMessageRecord.MAX_UNTIL) {
            throw DomainException.invalid("until", "until must be a Unix timestamp in seconds from 0 to "
                    + SystemMessageRecord.MAX_UNTIL + "; got " + until + ".");
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(SystemMessageCreatedEvent event) {
        systemMessageId = event.systemMessageId();
    }
}
