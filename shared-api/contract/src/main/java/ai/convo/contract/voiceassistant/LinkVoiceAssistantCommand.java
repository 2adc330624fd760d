package ai.convo.contract.voiceassistant;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Links the caller's account on a voice assistant, replacing a link they already have. Commands are never stored,
 * so the tokens travel here in clear; the aggregate seals them before anything reaches the event log.
 * {@link #toString()} hides them so that no log line ever carries them.
 */
public record LinkVoiceAssistantCommand(
        @TargetAggregateIdentifier VoiceAssistantAccountId accountId,
        VoiceAssistant voiceAssistant,
        Actor actor,
        String linkId,
        String accessToken,
        String refreshToken,
        long at) {

    @Override
    public String toString() {
        return "LinkVoiceAssistantCommand[accountId=" + accountId + ", voiceAssistant=" + voiceAssistant
                + ", actor=" + actor + ", linkId=" + linkId + ", accessToken=(hidden), refreshToken=(hidden), at=" + at
                + "]";
    }
}
