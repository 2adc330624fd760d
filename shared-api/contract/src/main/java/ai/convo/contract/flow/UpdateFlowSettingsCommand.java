package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import java.util.Map;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Sets flow settings: {@code changes} maps a setting's dotted path to its checked value (see Settings.FLOW);
 * {@code localeSettings} maps a locale of the flow's project to its inheritFallbackLocaleModel.
 */
public record UpdateFlowSettingsCommand(
        @TargetAggregateIdentifier FlowId flowId,
        Actor actor,
        Map<String, Object> changes,
        Map<String, Boolean> localeSettings,
        long at) {
}
