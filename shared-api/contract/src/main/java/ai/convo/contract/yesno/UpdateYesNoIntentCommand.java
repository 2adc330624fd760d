package ai.convo.contract.yesno;

import ai.convo.contract.common.Actor;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sets a yes/no intent's rules and/or isDisabled (null: unchanged). */
public record UpdateYesNoIntentCommand(
        @TargetAggregateIdentifier YesNoIntentId yesNoIntentId,
        YesNoTarget target,
        Actor actor,
        List<String> rules,
        Boolean disabled,
        long at) {
}
