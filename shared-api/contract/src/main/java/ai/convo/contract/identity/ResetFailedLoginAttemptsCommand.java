package ai.convo.contract.identity;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The official client's resetFailedLoginAttempts: an administrator of the user's organisation lifts a lock. */
public record ResetFailedLoginAttemptsCommand(
        @TargetAggregateIdentifier UserId userId,
        Actor actor,
        long at) {
}
