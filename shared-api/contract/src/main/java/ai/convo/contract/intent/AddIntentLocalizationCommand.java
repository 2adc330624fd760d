package ai.convo.contract.intent;

import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.locale.LocaleId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The official client's addIntentLocalization: the intent gets, in {@code localeId}, copies of its example sentences
 * of {@code inheritFromLocaleId} (those it does not have there yet). An intent's only localized content here is its
 * sentences, so without {@code inheritFromLocaleId} there is nothing to add.
 */
public record AddIntentLocalizationCommand(
        @TargetAggregateIdentifier IntentId intentId,
        FlowId flowId,
        Actor actor,
        LocaleId localeId,
        LocaleId inheritFromLocaleId,
        long at) {
}
