package ai.convo.contract.identity;

import java.util.List;

/** A user an administrator added to the organisation. No password or hash: credentials are kept outside the log. */
public record UserCreatedEvent(
        String userId,
        String organisationId,
        String email,
        String name,
        List<String> roles,
        String createdBy,
        long createdAt) {
}
