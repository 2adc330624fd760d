package ai.convo.contract.identity;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The old password was checked by the sender; passwordHash is the new one's slow hash. */
public record ChangePasswordCommand(@TargetAggregateIdentifier UserId userId, Actor actor, String passwordHash,
                                    long at) {
    @Override
    public String toString() {
        return "ChangePasswordCommand[" + userId + "]"; // never the hash
    }
}
