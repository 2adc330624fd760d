package ai.convo.command.identity;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.ChangeUserCommand;
import ai.convo.contract.identity.DeleteUserCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.identity.UserChangedEvent;
import ai.convo.contract.identity.UserCreatedEvent;
import ai.convo.contract.identity.UserDeletedEvent;
import ai.convo.contract.identity.UserId;
import ai.convo.contract.member.AddMemberCommand;
import ai.convo.contract.member.AddMemberRoleCommand;
import ai.convo.contract.member.ChangeMemberLocalesCommand;
import ai.convo.contract.member.MemberAddedEvent;
import ai.convo.contract.member.MemberRoleAddedEvent;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A user's own changes and project memberships, in given / when / then, with a look-up of fixed answers. */
class UserMembershipAggregateTest {

    static final String USER = "c00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String ADMIN = "c0000000000000000000000a";
    static final String PROJECT = "d00000000000000000000001";
    static final String LOCALE = "a00000000000000000000001";
    static final long T0 = 1_700_000_000L;
    static final Actor BY_ADMIN = new Actor(ADMIN, ORG, Role.ORG_ADMIN);

    private FixtureConfiguration<UserAggregate> fixture;
    private int otherAdmins;

    /** The organisation has PROJECT with LOCALE; otherAdmins other active administrators. */
    private final IdentityLookup lookup = new IdentityLookup(null) {
        @Override
        public boolean emailTaken(String email) {
            return email.equals("taken@example.com");
        }

        @Override
        public int otherActiveAdmins(String organisationId, String userId) {
            return otherAdmins;
        }

        @Override
        public boolean projectOf(String projectId, String organisationId) {
            return projectId.equals(PROJECT) && organisationId.equals(ORG);
        }

        @Override
        public List<String> localesNotOf(String projectId, List<String> localeIds) {
            return localeIds.stream().filter(id -> !id.equals(LOCALE)).toList();
        }
    };

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(UserAggregate.class);
        fixture.registerInjectableResource(lookup);
    }

    static UserCreatedEvent created(List<String> roles) {
        return new UserCreatedEvent(USER, ORG, "ada@example.com", "Ada", roles, ADMIN, T0);
    }

    @Test
    void givenAUser_whenAdministratorDisablesThem_thenChangedWithTheAuthor() {
        fixture.given(created(List.of()))
                .when(new ChangeUserCommand(UserId.of(USER), BY_ADMIN, null, null, true, T0 + 1))
                .expectEvents(new UserChangedEvent(USER, ORG, "Ada", "ada@example.com", true, ADMIN, T0 + 1));
    }

    @Test
    void givenAUser_whenChangedToATakenEmail_thenRefusedWithAConflict() {
        fixture.given(created(List.of()))
                .when(new ChangeUserCommand(UserId.of(USER), BY_ADMIN, null, "taken@example.com", null, T0 + 1))
                .expectException(DomainException.class).expectNoEvents();
    }

    @Test
    void givenTheOnlyAdministrator_whenDeleted_thenRefusedAndWithAnotherOneDeleted() {
        fixture.given(created(List.of("admin")))
                .when(new DeleteUserCommand(UserId.of(USER), BY_ADMIN, T0 + 1))
                .expectException(DomainException.class).expectNoEvents();
        otherAdmins = 1;
        fixture.given(created(List.of("admin")))
                .when(new DeleteUserCommand(UserId.of(USER), BY_ADMIN, T0 + 1))
                .expectEvents(new UserDeletedEvent(USER, ORG, ADMIN, T0 + 1));
    }

    @Test
    void givenAnotherOrganisationsCaller_whenAddingAMember_thenTheUserDoesNotExist() {
        fixture.given(created(List.of()))
                .when(new AddMemberCommand(UserId.of(USER), new Actor(ADMIN, OTHER_ORG, Role.ORG_ADMIN), PROJECT, T0))
                .expectException(DomainException.class)
                .expectExceptionMessage("User " + USER + " does not exist.").expectNoEvents();
    }

    @Test
    void givenAUser_whenAddedToAProjectTwice_thenOneMembershipWithBasic() {
        fixture.given(created(List.of()), new MemberAddedEvent(USER, ORG, PROJECT, List.of("basic"), ADMIN, T0))
                .when(new AddMemberCommand(UserId.of(USER), BY_ADMIN, PROJECT, T0 + 1))
                .expectNoEvents();
        fixture.given(created(List.of()))
                .when(new AddMemberCommand(UserId.of(USER), BY_ADMIN, PROJECT, T0 + 1))
                .expectEvents(new MemberAddedEvent(USER, ORG, PROJECT, List.of("basic"), ADMIN, T0 + 1));
    }

    @Test
    void givenAMember_whenGrantedARoleOrAnUnknownOne_thenTheRoleIsAddedOrRefused() {
        fixture.given(created(List.of()), new MemberAddedEvent(USER, ORG, PROJECT, List.of("basic"), ADMIN, T0))
                .when(new AddMemberRoleCommand(UserId.of(USER), BY_ADMIN, PROJECT, "flowEditor", T0 + 1))
                .expectEvents(new MemberRoleAddedEvent(USER, ORG, PROJECT, "flowEditor", ADMIN, T0 + 1));
        fixture.given(created(List.of()), new MemberAddedEvent(USER, ORG, PROJECT, List.of("basic"), ADMIN, T0))
                .when(new AddMemberRoleCommand(UserId.of(USER), BY_ADMIN, PROJECT, "wizard", T0 + 1))
                .expectException(DomainException.class).expectNoEvents();
    }

    @Test
    void givenANonMember_whenGrantedARoleOrLocales_thenRefusedAsNoMember() {
        fixture.given(created(List.of()))
                .when(new AddMemberRoleCommand(UserId.of(USER), BY_ADMIN, PROJECT, "flowEditor", T0 + 1))
                .expectException(DomainException.class).expectNoEvents();
        fixture.given(created(List.of()), new MemberAddedEvent(USER, ORG, PROJECT, List.of("basic"), ADMIN, T0))
                .when(new ChangeMemberLocalesCommand(UserId.of(USER), BY_ADMIN, PROJECT,
                        List.of("a00000000000000000000009"), T0 + 1))
                .expectException(DomainException.class).expectNoEvents();
    }
}
