package ai.convo.command.identity;

import ai.convo.contract.identity.UserId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.FailedLoginAttemptsResetEvent;
import ai.convo.contract.identity.ResetFailedLoginAttemptsCommand;
import ai.convo.contract.identity.ApiKeyIssuedEvent;
import ai.convo.contract.identity.ApiKeyRevokedEvent;
import ai.convo.contract.identity.IssueApiKeyCommand;
import ai.convo.contract.identity.RevokeApiKeyCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.identity.UserRegisteredEvent;
import java.util.HashSet;
import java.util.Set;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/** A user and the API keys they hold. */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class UserAggregate {

    static final int MAX_ACTIVE_KEYS = 50;

    @AggregateIdentifier
    private String userId;
    private String organisationId;
    private final Set<String> activeKeys = new HashSet<>();

    protected UserAggregate() {
        // for Axon
    }

    UserAggregate(String userId, String organisationId, String email, String passwordHash, Role role,
                  String createdBy, long at) {
        apply(new UserRegisteredEvent(userId, organisationId, email, passwordHash, role, createdBy, at));
    }

    @CommandHandler
    public void handle(IssueApiKeyCommand command) {
        requireOwnOrganisation(command.organisationId());
        if (activeKeys.size() >= MAX_ACTIVE_KEYS) {
            throw DomainException.conflict("A user can hold at most " + MAX_ACTIVE_KEYS
                    + " active API keys; revoke one first.");
        }
        apply(new ApiKeyIssuedEvent(userId, organisationId, command.apiKeyId().value(), command.label(),
                command.keyHash(), command.at()));
    }

    @CommandHandler
    public void handle(RevokeApiKeyCommand command) {
        requireOwnOrganisation(command.organisationId());
        String keyId = command.apiKeyId().value();
        if (!activeKeys.contains(keyId)) {
            throw DomainException.notFound("You hold no active API key with id " + keyId + ".");
        }
        apply(new ApiKeyRevokedEvent(userId, organisationId, keyId, command.at()));
    }

    /** Administrators of the user's organisation, and system administrators, may lift a user's lock. */
    @CommandHandler
    public void handle(ResetFailedLoginAttemptsCommand command) {
        Actor actor = command.actor();
        boolean system = actor.role() == Role.SYSTEM_ADMIN;
        if (!system) {
            requireOwnOrganisation(actor.organisationId());
            if (actor.role() != Role.ORG_ADMIN) {
                throw DomainException.forbidden("Only an administrator of the user's organisation can reset the "
                        + "user's failed sign-ins.");
            }
        }
        apply(new FailedLoginAttemptsResetEvent(userId, organisationId, actor.userId(), command.at()));
    }

    private void requireOwnOrganisation(String organisation) {
        if (!organisationId.equals(organisation)) {
            throw Absent.of(UserId.class, userId);
        }
    }

    @EventSourcingHandler
    void on(UserRegisteredEvent event) {
        userId = event.userId();
        organisationId = event.organisationId();
    }

    @EventSourcingHandler
    void on(ApiKeyIssuedEvent event) {
        activeKeys.add(event.apiKeyId());
    }

    @EventSourcingHandler
    void on(ApiKeyRevokedEvent event) {
        activeKeys.remove(event.apiKeyId());
    }
}
