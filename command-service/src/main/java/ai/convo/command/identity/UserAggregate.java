package ai.convo.command.identity;

import ai.convo.contract.identity.UserId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.FailedLoginAttemptsResetEvent;
import ai.convo.contract.identity.ResetFailedLoginAttemptsCommand;
import ai.convo.contract.identity.ApiKeyIssuedEvent;
import ai.convo.contract.identity.ApiKeyRevokedEvent;
import ai.convo.contract.identity.IssueApiKeyCommand;
import ai.convo.contract.identity.RevokeApiKeyCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.identity.UserRegisteredEvent;
import ai.convo.contract.identity.AddUserRoleCommand;
import ai.convo.contract.identity.ChangePasswordCommand;
import ai.convo.contract.identity.ChangeUserCommand;
import ai.convo.contract.identity.DeleteUserCommand;
import ai.convo.contract.identity.OrganisationRoles;
import ai.convo.contract.identity.RemoveUserRoleCommand;
import ai.convo.contract.identity.UserChangedEvent;
import ai.convo.contract.identity.UserCreatedEvent;
import ai.convo.contract.identity.UserDeletedEvent;
import ai.convo.contract.identity.UserPasswordChangedEvent;
import ai.convo.contract.identity.UserRoleAddedEvent;
import ai.convo.contract.identity.UserRoleRemovedEvent;
import ai.convo.contract.member.AddMemberCommand;
import ai.convo.contract.member.AddMemberRoleCommand;
import ai.convo.contract.member.ChangeMemberLocalesCommand;
import ai.convo.contract.member.MemberAddedEvent;
import ai.convo.contract.member.MemberLocalesChangedEvent;
import ai.convo.contract.member.MemberRemovedEvent;
import ai.convo.contract.member.MemberRoleAddedEvent;
import ai.convo.contract.member.MemberRoleRemovedEvent;
import ai.convo.contract.member.ProjectRoles;
import ai.convo.contract.member.RemoveMemberCommand;
import ai.convo.contract.member.RemoveMemberRoleCommand;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/** A user, the API keys they hold, their organisation-wide roles and their project memberships. */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class UserAggregate {

    static final int MAX_ACTIVE_KEYS = 50;

    @AggregateIdentifier
    private String userId;
    private String organisationId;
    private final Set<String> activeKeys = new HashSet<>();
    private String name = "";
    private String email;
    private boolean disabled;
    private boolean deleted;
    private boolean admin;
    private final Set<String> roles = new HashSet<>();
    /** Project id to the member's project-wide roles. */
    private final Map<String, Set<String>> memberships = new java.util.LinkedHashMap<>();

    protected UserAggregate() {
        // for Axon
    }

    UserAggregate(String userId, String organisationId, String email, String passwordHash, Role role,
                  String createdBy, long at) {
        apply(new UserRegisteredEvent(userId, organisationId, email, passwordHash, role, createdBy, at));
    }

    @CommandHandler
    public void handle(IssueApiKeyCommand command) {
        requireOwnOrganisation(command.organisationId());
        if (activeKeys.size() >= MAX_ACTIVE_KEYS) {
            throw DomainException.conflict("A user can hold at most " + MAX_ACTIVE_KEYS
                    + " active API keys; revoke one first.");
        }
        apply(new ApiKeyIssuedEvent(userId, organisationId, command.apiKeyId().value(), command.label(),
                command.keyHash(), command.at()));
    }

    @CommandHandler
    public void handle(RevokeApiKeyCommand command) {
        requireOwnOrganisation(command.organisationId());
        String keyId = command.apiKeyId().value();
        if (!activeKeys.contains(keyId)) {
            throw DomainException.notFound("You hold no active API key with id " + keyId + ".");
        }
        apply(new ApiKeyRevokedEvent(userId, organisationId, keyId, command.at()));
    }

    /** Administrators of the user's organisation, and system administrators, may lift a user's lock. */
    @CommandHandler
    public void handle(ResetFailedLoginAttemptsCommand command) {
        Actor actor = command.actor();
        boolean system = actor.role() == Role.SYSTEM_ADMIN;
        if (!system) {
            requireOwnOrganisation(actor.organisationId());
            if (actor.role() != Role.ORG_ADMIN) {
                throw DomainException.forbidden("Only an administrator of the user's organisation can reset the "
                        + "user's failed sign-ins.");
            }
        }
        apply(new FailedLoginAttemptsResetEvent(userId, organisationId, actor.userId(), command.at()));
    }

    UserAggregate(UserCreatedEvent created) {
        apply(created);
    }

    @CommandHandler
    public void handle(ChangeUserCommand command, IdentityLookup lookup) {
        requireOwnOrganisation(command.actor().organisationId());
        String newName = command.name() == null ? name : command.name();
        String newEmail = command.email() == null ? email : command.email();
        boolean newDisabled = command.disabled() == null ? disabled : command.disabled();
        if (!Objects.equals(newEmail, email) && lookup.emailTaken(newEmail)) {
            throw DomainException.conflict("A user with email " + newEmail + " already exists.");
        }
        if (newDisabled && !disabled) {
            requireAnotherAdmin(lookup, "disabled");
        }
        if (newName.equals(name) && Objects.equals(newEmail, email) && newDisabled == disabled) {
            return;
        }
        apply(new UserChangedEvent(userId, organisationId, newName, newEmail, newDisabled, command.actor().userId(),
                command.at()));
    }

    @CommandHandler
    public void handle(DeleteUserCommand command, IdentityLookup lookup) {
        requireOwnOrganisation(command.actor().organisationId());
        requireAnotherAdmin(lookup, "deleted");
        apply(new UserDeletedEvent(userId, organisationId, command.actor().userId(), command.at()));
    }

    @CommandHandler
    public void handle(AddUserRoleCommand command) {
        requireOwnOrganisation(command.actor().organisationId());
        requireKnown(command.role(), OrganisationRoles.ALL, "organisation-wide");
        if (!roles.contains(command.role())) {
            apply(new UserRoleAddedEvent(userId, organisationId, command.role(), command.actor().userId(),
                    command.at()));
        }
    }

    @CommandHandler
    public void handle(RemoveUserRoleCommand command, IdentityLookup lookup) {
        requireOwnOrganisation(command.actor().organisationId());
        requireKnown(command.role(), OrganisationRoles.ALL, "organisation-wide");
        if (!roles.contains(command.role())) {
            return;
        }
        if (OrganisationRoles.ADMIN.equals(command.role())) {
            requireAnotherAdmin(lookup, "left without the admin role");
        }
        apply(new UserRoleRemovedEvent(userId, organisationId, command.role(), command.actor().userId(),
                command.at()));
    }

    @CommandHandler
    public void handle(ChangePasswordCommand command, IdentityLookup lookup) {
        requireOwnOrganisation(command.actor().organisationId());
        lookup.setPassword(userId, command.passwordHash(), command.at());
        apply(new UserPasswordChangedEvent(userId, organisationId, command.actor().userId(), command.at()));
    }

    @CommandHandler
    public void handle(AddMemberCommand command, IdentityLookup lookup) {
        requireOwnOrganisation(command.actor().organisationId());
        requireProject(lookup, command.projectId());
        if (!memberships.containsKey(command.projectId())) {
            apply(new MemberAddedEvent(userId, organisationId, command.projectId(), List.of(ProjectRoles.BASIC),
                    command.actor().userId(), command.at()));
        }
    }

    @CommandHandler
    public void handle(RemoveMemberCommand command, IdentityLookup lookup) {
        requireOwnOrganisation(command.actor().organisationId());
        requireProject(lookup, command.projectId());
        if (memberships.containsKey(command.projectId())) {
            apply(new MemberRemovedEvent(userId, organisationId, command.projectId(), command.actor().userId(),
                    command.at()));
        }
    }

    @CommandHandler
    public void handle(AddMemberRoleCommand command, IdentityLookup lookup) {
        Set<String> held = requireMembership(lookup, command.actor().organisationId(), command.projectId());
        requireKnown(command.role(), ProjectRoles.ALL, "project-wide");
        if (!held.contains(command.role())) {
            apply(new MemberRoleAddedEvent(userId, organisationId, command.projectId(), command.role(),
                    command.actor().userId(), command.at()));
        }
    }

    @CommandHandler
    public void handle(RemoveMemberRoleCommand command, IdentityLookup lookup) {
        Set<String> held = requireMembership(lookup, command.actor().organisationId(), command.projectId());
        requireKnown(command.role(), ProjectRoles.ALL, "project-wide");
        if (held.contains(command.role())) {
            apply(new MemberRoleRemovedEvent(userId, organisationId, command.projectId(), command.role(),
                    command.actor().userId(), command.at()));
        }
    }

    @CommandHandler
    public void handle(ChangeMemberLocalesCommand command, IdentityLookup lookup) {
        requireMembership(lookup, command.actor().organisationId(), command.projectId());
        if (command.allowedLocales() != null) {
            List<String> foreign = lookup.localesNotOf(command.projectId(), command.allowedLocales());
            if (!foreign.isEmpty()) {
                throw DomainException.invalid("allowedLocales", "allowedLocales must name locales of project "
                        + command.projectId() + "; these are not: " + String.join(", ", foreign) + ".");
            }
        }
        apply(new MemberLocalesChangedEvent(userId, organisationId, command.projectId(),
                command.allowedLocales() == null ? null : List.copyOf(new LinkedHashSet<>(command.allowedLocales())),
                command.actor().userId(), command.at()));
    }

    private Set<String> requireMembership(IdentityLookup lookup, String actorOrganisation, String projectId) {
        requireOwnOrganisation(actorOrganisation);
        requireProject(lookup, projectId);
        Set<String> held = memberships.get(projectId);
        if (held == null) {
            throw DomainException.notFound("User " + userId + " is not a member of project " + projectId
                    + "; add them first (addprojectmember).");
        }
        return held;
    }

    private void requireProject(IdentityLookup lookup, String projectId) {
        if (!lookup.projectOf(projectId, organisationId)) {
            throw Absent.of(ai.convo.contract.project.ProjectId.class, projectId);
        }
    }

    private static void requireKnown(String role, List<String> known, String kind) {
        if (!known.contains(role)) {
            throw DomainException.invalid("role", "role must be one of the " + kind + " roles: "
                    + String.join(", ", known) + ".");
        }
    }

    /** An organisation keeps at least one active administrator: nobody can lock it out of itself. */
    private void requireAnotherAdmin(IdentityLookup lookup, String what) {
        if (admin && !disabled && lookup.otherActiveAdmins(organisationId, userId) == 0) {
            throw DomainException.conflict("User " + userId + " is the organisation's only active administrator "
                    + "and cannot be " + what + "; make another user an administrator first (role admin).");
        }
    }

    private void requireOwnOrganisation(String organisation) {
        if (deleted || !organisationId.equals(organisation)) {
            throw Absent.of(UserId.class, userId);
        }
    }

    @EventSourcingHandler
    void on(UserRegisteredEvent event) {
        userId = event.userId();
        organisationId = event.organisationId();
        email = event.email();
        admin = event.role() == Role.ORG_ADMIN || event.role() == Role.SYSTEM_ADMIN;
    }

    @EventSourcingHandler
    void on(UserCreatedEvent event) {
        userId = event.userId();
        organisationId = event.organisationId();
        email = event.email();
        name = event.name();
        roles.addAll(event.roles());
        admin = roles.contains(OrganisationRoles.ADMIN);
    }

    @EventSourcingHandler
    void on(UserChangedEvent event) {
        name = event.name();
        email = event.email();
        disabled = event.disabled();
    }

    @EventSourcingHandler
    void on(UserDeletedEvent event) {
        deleted = true;
    }

    @EventSourcingHandler
    void on(UserRoleAddedEvent event) {
        roles.add(event.role());
        admin = admin || OrganisationRoles.ADMIN.equals(event.role());
    }

    @EventSourcingHandler
    void on(UserRoleRemovedEvent event) {
        roles.remove(event.role());
        if (OrganisationRoles.ADMIN.equals(event.role())) {
            admin = false;
        }
    }

    @EventSourcingHandler
    void on(MemberAddedEvent event) {
        memberships.put(event.projectId(), new HashSet<>(event.roles()));
    }

    @EventSourcingHandler
    void on(MemberRemovedEvent event) {
        memberships.remove(event.projectId());
    }

    @EventSourcingHandler
    void on(MemberRoleAddedEvent event) {
        memberships.get(event.projectId()).add(event.role());
    }

    @EventSourcingHandler
    void on(MemberRoleRemovedEvent event) {
        memberships.get(event.projectId()).remove(event.role());
    }

    @EventSourcingHandler
    void on(ApiKeyIssuedEvent event) {
        activeKeys.add(event.apiKeyId());
    }

    @EventSourcingHandler
    void on(ApiKeyRevokedEvent event) {
        activeKeys.remove(event.apiKeyId());
    }
}
