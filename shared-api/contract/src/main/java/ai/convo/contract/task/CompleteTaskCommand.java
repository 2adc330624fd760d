package ai.convo.contract.task;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The running attempt finished its work: {@code active -> done}. */
public record CompleteTaskCommand(
        @TargetAggregateIdentifier TaskId taskId,
        int attempt,
        long at) {
}
