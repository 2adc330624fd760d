package ai.convo.contract.identity;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteUserCommand(@TargetAggregateIdentifier UserId userId, Actor actor, long at) {
}
