package ai.convo.contract.identity;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Null fields stay as they are. */
public record ChangeUserCommand(@TargetAggregateIdentifier UserId userId, Actor actor, String name, String email,
                                Boolean disabled, long at) {
}
