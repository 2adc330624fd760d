package ai.convo.contract.voiceassistant;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Unlinks the caller's account on a voice assistant and destroys the key its tokens were sealed with. */
public record UnlinkVoiceAssistantCommand(
        @TargetAggregateIdentifier VoiceAssistantAccountId accountId,
        VoiceAssistant voiceAssistant,
        Actor actor,
        long at) {
}
