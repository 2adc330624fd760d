package ai.convo.command.identity;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.CreateOrganisationCommand;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.modelling.command.Repository;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * Creates an organisation and its first user in one unit of work: either both exist or neither.
 * Email uniqueness is checked here for a clear message; the unique index of the identity lookup,
 * written in the same transaction, settles races.
 */
@Component
class OrganisationCommandHandler {

    private final Repository<OrganisationAggregate> organisations;
    private final Repository<UserAggregate> users;
    private final IdentityLookup lookup;

    public OrganisationCommandHandler(@Qualifier("organisationAggregateRepository") Repository<OrganisationAggregate> organisations,
                                      @Qualifier("userAggregateRepository") Repository<UserAggregate> users,
                                      IdentityLookup lookup) {
        this.organisations = organisations;
        this.users = users;
        this.lookup = lookup;
    }

    @CommandHandler
    public String handle(CreateOrganisationCommand command) throws Exception {
        if (lookup.emailTaken(command.adminEmail())) {
            throw DomainException.conflict("A user with email " + command.adminEmail() + " already exists.");
        }
        String organisationId = command.organisationId().value();
        organisations.newInstance(() -> new OrganisationAggregate(organisationId, command.name(), command.createdBy(),
                command.at()));
        users.newInstance(() -> new UserAggregate(command.adminUserId().value(), organisationId, command.adminEmail(),
                command.adminPasswordHash(), command.adminRole(), command.createdBy(), command.at()));
        return organisationId;
    }
}
