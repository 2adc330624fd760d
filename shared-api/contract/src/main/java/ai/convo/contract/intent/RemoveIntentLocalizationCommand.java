package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.locale.LocaleId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The official client's removeIntentLocalization: the intent's example sentences of {@code localeId} are deleted. */
public record RemoveIntentLocalizationCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        Actor actor,
        LocaleId localeId,
        long at) {
}
