package ai.convo.contract.identity;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Issues an API key to a user. Only the key's hash travels; the secret never enters the write model. */
public record IssueApiKeyCommand(
        @TargetAggregateIdentifier UserId userId,
        ApiKeyId apiKeyId,
        String organisationId,
        String label,
        String keyHash,
        long at) {
}
