package ai.convo.contract.project;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record DeleteProjectCommand(@TargetAggregateIdentifier ProjectId projectId, Actor actor, long at) {
}
