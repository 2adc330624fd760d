package ai.convo.contract.systemmessage;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates a System message; only a system administrator may. Each message is its own aggregate. */
public record CreateSystemMessageCommand(
        @TargetAggregateIdentifier SystemMessageId systemMessageId,
        Actor actor,
        String message,
        long until,
        boolean showOnLogin,
        long at) {
}
