package ai.convo.command.voiceassistant;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.voiceassistant.LinkVoiceAssistantCommand;
import ai.convo.contract.voiceassistant.UnlinkVoiceAssistantCommand;
import ai.convo.contract.voiceassistant.VoiceAssistant;
import ai.convo.contract.voiceassistant.VoiceAssistantAccountId;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkRecord;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent;
import ai.convo.contract.voiceassistant.VoiceAssistantUnlinkedEvent;
import javax.crypto.SecretKey;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * One user's account slot on one voice assistant: at most one live link. Linking again replaces the link (tokens
 * rotate; a client refreshing them must not have to unlink first and leave a gap). Every link has its own key
 * ({@link LinkKeys}); events carry only the sealed tokens, and the key is destroyed when the link ends, so the
 * tokens are erased from the log and its backups alike.
 *
 * <p>The state holds no token, sealed or clear: a snapshot of this aggregate can never leak one. Both commands run
 * on an id without history too ({@code CREATE_IF_MISSING}); an unlink there throws, so nothing is created.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class VoiceAssistantAccountAggregate {

    @AggregateIdentifier
    private String accountId;
    private String linkId;

    protected VoiceAssistantAccountAggregate() {
        // for Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public VoiceAssistantLinkRecord handle(LinkVoiceAssistantCommand command, LinkKeys keys) {
        requireOwnAccount(command.accountId(), command.voiceAssistant(), command.actor());
        Ids.require("linkId", command.linkId());
        requireToken("accessToken", command.accessToken());
        requireToken("refreshToken", command.refreshToken());
        Actor actor = command.actor();
        String account = command.accountId().value();
        String assistant = command.voiceAssistant().code();
        if (linkId != null) {
            keys.destroy(linkId);
            apply(new VoiceAssistantUnlinkedEvent(account, assistant, actor.userId(), actor.organisationId(), linkId,
                    VoiceAssistantUnlinkedEvent.REPLACED, actor.userId(), command.at()));
        }
        String newLink = command.linkId();
        SecretKey key = keys.create(newLink, account, command.at());
        apply(new VoiceAssistantLinkedEvent(account, assistant, actor.userId(), actor.organisationId(), newLink,
                TokenCipher.NAME, TokenCipher.seal(key, newLink, "accessToken", command.accessToken()),
                TokenCipher.seal(key, newLink, "refreshToken", command.refreshToken()), actor.userId(), command.at()));
        return new VoiceAssistantLinkRecord(newLink, actor.userId(), actor.organisationId(), assistant, command.at(),
                actor.userId());
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public void handle(UnlinkVoiceAssistantCommand command, LinkKeys keys) {
        requireOwnAccount(command.accountId(), command.voiceAssistant(), command.actor());
        if (linkId == null) {
            throw DomainException.notFound("No " + command.voiceAssistant().code() + " account is linked to your "
                    + "user; link one with POST /v2.0/external/" + command.voiceAssistant().code() + "/users.");
        }
        Actor actor = command.actor();
        keys.destroy(linkId);
        apply(new VoiceAssistantUnlinkedEvent(command.accountId().value(), command.voiceAssistant().code(),
                actor.userId(), actor.organisationId(), linkId, VoiceAssistantUnlinkedEvent.UNLINKED, actor.userId(),
                command.at()));
    }

    // ---- guard clauses

    /** An account is only ever its own user's: the id is derived from the user, so any other id is not theirs. */
    private static void requireOwnAccount(VoiceAssistantAccountId id, VoiceAssistant assistant, Actor actor) {
        if (!VoiceAssistantAccountId.of(assistant, actor.userId()).equals(id)) {
            throw DomainException.notFound("No " + assistant.code() + " account " + id.value() + " exists for you.");
        }
    }

    private static void requireToken(String field, String token) {
        if (token == null || token.isBlank() || token.length() > VoiceAssistantLinkRecord.MAX_TOKEN_LENGTH) {
            throw DomainException.invalid(field, field + " must be a string of 1 to "
                    + VoiceAssistantLinkRecord.MAX_TOKEN_LENGTH + " characters (not blank).");
        }
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(VoiceAssistantLinkedEvent event) {
        accountId = event.accountId();
        linkId = event.linkId();
    }

    @EventSourcingHandler
    void on(VoiceAssistantUnlinkedEvent event) {
        linkId = null;
    }
}
