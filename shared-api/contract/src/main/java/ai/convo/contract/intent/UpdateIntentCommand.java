package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.locale.LocaleId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A PATCH of an intent. {@code localeId} (may be null) is the locale the client edits in, as the official
 * client sends it; it must be a locale of the flow's project and chooses the answer's localeReference.
 */
public record UpdateIntentCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        Actor actor,
        IntentPatch patch,
        LocaleId localeId,
        long at) {
}
