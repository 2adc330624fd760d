package ai.convo.contract.member;

import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.UserId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record RemoveMemberRoleCommand(@TargetAggregateIdentifier UserId userId, Actor actor, String projectId,
                                      String role, long at) {
}
