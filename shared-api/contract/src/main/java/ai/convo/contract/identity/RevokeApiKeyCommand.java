package ai.convo.contract.identity;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record RevokeApiKeyCommand(
        @TargetAggregateIdentifier UserId userId,
        ApiKeyId apiKeyId,
        String organisationId,
        long at) {
}
