package ai.convo.contract.task;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The running attempt reports progress; a null step leaves that value as it is. Answers the task's status, so the
 * runner learns of a cancel request with the same round trip.
 */
public record RecordTaskProgressCommand(
        @TargetAggregateIdentifier TaskId taskId,
        int attempt,
        Integer currentStep,
        Integer totalStep,
        long at) {
}
