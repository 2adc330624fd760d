package ai.convo.contract.task;

/** The running attempt reached {@code currentStep} of {@code totalStep}. */
public record TaskProgressedEvent(
        String taskId,
        String projectId,
        String organisationId,
        int currentStep,
        int totalStep,
        long at) {
}
