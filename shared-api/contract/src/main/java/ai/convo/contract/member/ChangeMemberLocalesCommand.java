package ai.convo.contract.member;

import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.UserId;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** allowedLocales null: every locale of the project. */
public record ChangeMemberLocalesCommand(@TargetAggregateIdentifier UserId userId, Actor actor, String projectId,
                                         List<String> allowedLocales, long at) {
}
