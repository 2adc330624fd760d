package ai.convo.contract.member;

import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.UserId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record RemoveMemberCommand(@TargetAggregateIdentifier UserId userId, Actor actor, String projectId, long at) {
}
