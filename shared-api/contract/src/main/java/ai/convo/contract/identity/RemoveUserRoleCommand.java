package ai.convo.contract.identity;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record RemoveUserRoleCommand(@TargetAggregateIdentifier UserId userId, Actor actor, String role, long at) {
}
