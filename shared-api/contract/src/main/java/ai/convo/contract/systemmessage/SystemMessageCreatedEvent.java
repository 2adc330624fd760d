package ai.convo.contract.systemmessage;

/** A System message was created; it is shown while {@code until} (Unix seconds) lies in the future. */
public record SystemMessageCreatedEvent(
        String systemMessageId,
        String message,
        long until,
        boolean showOnLogin,
        String createdBy,
        long createdAt) {
}
