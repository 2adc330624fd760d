package ai.convo.contract.task;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A user asks to cancel a task: {@code queued | active -> cancelling}. Answers the task's record. */
public record RequestTaskCancelCommand(
        @TargetAggregateIdentifier TaskId taskId,
        Actor actor,
        long at) {
}
