package ai.convo.command.identity;

import static org.hamcrest.Matchers.containsString;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.FailedLoginAttemptsResetEvent;
import ai.convo.contract.identity.ResetFailedLoginAttemptsCommand;
import ai.convo.contract.identity.ApiKeyId;
import ai.convo.contract.identity.ApiKeyIssuedEvent;
import ai.convo.contract.identity.ApiKeyRevokedEvent;
import ai.convo.contract.identity.IssueApiKeyCommand;
import ai.convo.contract.identity.RevokeApiKeyCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.identity.UserId;
import ai.convo.contract.identity.UserRegisteredEvent;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A user's API keys, in given (past events) / when (command) / then (events or error). */
class UserAggregateTest {

    static final String USER = "c00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String ADMIN = "c0000000000000000000000a";
    static final String KEY = "e00000000000000000000001";
    static final String OTHER_KEY = "e00000000000000000000002";
    static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    private FixtureConfiguration<UserAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(UserAggregate.class);
    }

    static UserRegisteredEvent registered() {
        return new UserRegisteredEvent(USER, ORG, "ada@example.com", "$2a$10$hashhashhash", Role.MEMBER, ADMIN, T0);
    }

    static ApiKeyIssuedEvent issued(String keyId) {
        return new ApiKeyIssuedEvent(USER, ORG, keyId, "label " + keyId, HASH, T0);
    }

    static String keyId(int n) {
        return String.format("f%023d", n);
    }

    /** The registration followed by {@code count} issued keys f...1 to f...count. */
    static List<Object> registeredWithKeys(int count) {
        List<Object> events = new ArrayList<>();
        events.add(registered());
        for (int i = 1; i <= count; i++) {
            events.add(issued(keyId(i)));
        }
        return events;
    }

    static IssueApiKeyCommand issue(String keyId, String organisationId) {
        return new IssueApiKeyCommand(UserId.of(USER), ApiKeyId.of(keyId), organisationId, "ci pipeline", HASH, T1);
    }

    static RevokeApiKeyCommand revoke(String keyId, String organisationId) {
        return new RevokeApiKeyCommand(UserId.of(USER), ApiKeyId.of(keyId), organisationId, T1);
    }

    static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                return actual instanceof DomainException e && e.kind() == kind
                        && e.getMessage() != null && e.getMessage().contains(messageFragment);
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("DomainException of kind " + kind + " with a message containing '"
                        + messageFragment + "'");
            }

            @Override
            public void describeMismatch(Object actual, Description description) {
                if (actual instanceof DomainException e) {
                    description.appendText("was kind " + e.kind() + " with message '" + e.getMessage() + "'");
                } else {
                    description.appendText("was " + actual);
                }
            }
        };
    }

    // ---- issue

    @Test
    void givenARegisteredUser_whenIssuingAKey_thenApiKeyIssued() {
        // given
        fixture.given(registered())
                // when
                .when(issue(KEY, ORG))
                // then
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ApiKeyIssuedEvent(USER, ORG, KEY, "ci pipeline", HASH, T1));
    }

    @Test
    void givenARegisteredUser_whenIssuingAKeyForAnotherOrganisation_thenNotFound() {
        // given
        fixture.given(registered())
                // when
                .when(issue(KEY, OTHER_ORG))
                // then
                .expectException(DomainException.class)
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "User " + USER + " does not exist."))
                .expectNoEvents();
    }

    @Test
    void givenFortyNineActiveKeys_whenIssuingOneMore_thenApiKeyIssued() {
        // given
        fixture.given(registeredWithKeys(49))
                // when
                .when(issue(KEY, ORG))
                // then
                .expectEvents(new ApiKeyIssuedEvent(USER, ORG, KEY, "ci pipeline", HASH, T1));
    }

    @Test
    void givenFiftyActiveKeys_whenIssuingOneMore_thenConflict() {
        // given
        fixture.given(registeredWithKeys(50))
                // when
                .when(issue(KEY, ORG))
                // then
                .expectException(DomainException.class)
                .expectException(domainError(DomainException.Kind.CONFLICT, "at most 50 active API keys"))
                .expectExceptionMessage(containsString("revoke one first"))
                .expectNoEvents();
    }

    @Test
    void givenFiftyIssuedKeysOfWhichOneIsRevoked_whenIssuingOneMore_thenApiKeyIssued() {
        // given
        List<Object> history = registeredWithKeys(50);
        history.add(new ApiKeyRevokedEvent(USER, ORG, keyId(7), T0));
        fixture.given(history)
                // when
                .when(issue(KEY, ORG))
                // then
                .expectEvents(new ApiKeyIssuedEvent(USER, ORG, KEY, "ci pipeline", HASH, T1));
    }

    // ---- revoke

    @Test
    void givenAnActiveKey_whenRevokingIt_thenApiKeyRevoked() {
        // given
        fixture.given(registered(), issued(KEY), issued(OTHER_KEY))
                // when
                .when(revoke(KEY, ORG))
                // then
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ApiKeyRevokedEvent(USER, ORG, KEY, T1));
    }

    @Test
    void givenNoSuchKey_whenRevokingIt_thenNotFound() {
        // given
        fixture.given(registered(), issued(OTHER_KEY))
                // when
                .when(revoke(KEY, ORG))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "no active API key with id " + KEY))
                .expectNoEvents();
    }

    @Test
    void givenARevokedKey_whenRevokingItAgain_thenNotFound() {
        // given
        fixture.given(registered(), issued(KEY), new ApiKeyRevokedEvent(USER, ORG, KEY, T0))
                // when
                .when(revoke(KEY, ORG))
                // then
                .expectException(DomainException.class)
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "no active API key with id " + KEY))
                .expectNoEvents();
    }

    @Test
    void givenAnActiveKey_whenRevokingItFromAnotherOrganisation_thenNotFound() {
        // given
        fixture.given(registered(), issued(KEY))
                // when
                .when(revoke(KEY, OTHER_ORG))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "User " + USER + " does not exist."))
                .expectNoEvents();
    }

    // ---- failed sign-ins

    @Test
    void givenAUser_whenAnAdministratorOfItsOrganisationResetsItsFailedSignIns_thenTheResetIsRecorded() {
        fixture.given(registered())
                .when(new ResetFailedLoginAttemptsCommand(UserId.of(USER), new Actor(ADMIN, ORG, Role.ORG_ADMIN), T1))
                .expectEvents(new FailedLoginAttemptsResetEvent(USER, ORG, ADMIN, T1));
    }

    @Test
    void givenAUser_whenASystemAdministratorOfAnotherOrganisationResets_thenTheResetIsRecorded() {
        fixture.given(registered())
                .when(new ResetFailedLoginAttemptsCommand(UserId.of(USER), new Actor(ADMIN, OTHER_ORG, Role.SYSTEM_ADMIN),
                        T1))
                .expectEvents(new FailedLoginAttemptsResetEvent(USER, ORG, ADMIN, T1));
    }

    @Test
    void givenAUser_whenAMemberOrAnotherOrganisationsAdministratorResets_then403Or404AndNothingRecorded() {
        fixture.given(registered())
                .when(new ResetFailedLoginAttemptsCommand(UserId.of(USER), new Actor(ADMIN, ORG, Role.MEMBER), T1))
                .expectNoEvents()
                .expectException(DomainException.class)
                .expectExceptionMessage(containsString("Only an administrator"));
        fixture.given(registered())
                .when(new ResetFailedLoginAttemptsCommand(UserId.of(USER), new Actor(ADMIN, OTHER_ORG, Role.ORG_ADMIN),
                        T1))
                .expectNoEvents()
                .expectException(DomainException.class)
                .expectExceptionMessage(containsString("does not exist."));
    }
}
