package ai.convo.command.identity;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.CreateUserCommand;
import ai.convo.contract.identity.OrganisationRoles;
import ai.convo.contract.identity.UserCreatedEvent;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.modelling.command.Repository;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/** Adds a user to the caller's organisation; the unique e-mail index, written in the same transaction, settles races. */
@Component
class UserCommandHandler {

    private final Repository<UserAggregate> users;
    private final IdentityLookup lookup;

    public UserCommandHandler(@Qualifier("userAggregateRepository") Repository<UserAggregate> users,
                              IdentityLookup lookup) {
        this.users = users;
        this.lookup = lookup;
    }

    @CommandHandler
    public String handle(CreateUserCommand command) throws Exception {
        if (lookup.emailTaken(command.email())) {
            throw DomainException.conflict("A user with email " + command.email() + " already exists.");
        }
        List<String> unknown = command.roles().stream().filter(r -> !OrganisationRoles.ALL.contains(r)).toList();
        if (!unknown.isEmpty()) {
            throw DomainException.invalid("roles", "roles must be organisation-wide roles ("
                    + String.join(", ", OrganisationRoles.ALL) + "); not: " + String.join(", ", unknown) + ".");
        }
        String userId = command.userId().value();
        users.newInstance(() -> new UserAggregate(new UserCreatedEvent(userId, command.actor().organisationId(),
                command.email(), command.name(), List.copyOf(command.roles()), command.actor().userId(),
                command.at())));
        if (command.passwordHash() != null) {
            lookup.setPassword(userId, command.passwordHash(), command.at());
        }
        return userId;
    }
}
