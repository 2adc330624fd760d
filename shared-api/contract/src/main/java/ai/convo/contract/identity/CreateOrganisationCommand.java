package ai.convo.contract.identity;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates an organisation together with its first user, atomically. */
public record CreateOrganisationCommand(
        @TargetAggregateIdentifier OrganisationId organisationId,
        String name,
        UserId adminUserId,
        String adminEmail,
        String adminPasswordHash,
        Role adminRole,
        String createdBy,
        long at) {
}
