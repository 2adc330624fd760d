package ai.convo.command.systemmessage;

import static ai.convo.command.token.DomainErrors.domainError;
import static ai.convo.command.token.DomainErrors.invalidField;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.systemmessage.CreateSystemMessageCommand;
import ai.convo.contract.systemmessage.SystemMessageCreatedEvent;
import ai.convo.contract.systemmessage.SystemMessageId;
import ai.convo.contract.systemmessage.SystemMessageRecord;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The write model of a System message, in given (past events) / when (command) / then (events or error). */
class SystemMessageAggregateTest {

    static final String MESSAGE_ID = "d00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String ADMIN = "c00000000000000000000001";
    static final long T0 = 1_700_000_000L;
    static final Actor SYSTEM_ADMIN = new Actor(ADMIN, ORG, Role.SYSTEM_ADMIN);

    private FixtureConfiguration<SystemMessageAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(SystemMessageAggregate.class);
    }

    private static CreateSystemMessageCommand create(Actor actor, String message, long until, boolean showOnLogin) {
        return new CreateSystemMessageCommand(SystemMessageId.of(MESSAGE_ID), actor, message, until, showOnLogin, T0);
    }

    @Test
    void givenNothing_whenASystemAdministratorCreatesAMessage_thenItIsCreated() {
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, "Maintenance tonight", T0 + 3600, true))
                .expectSuccessfulHandlerExecution()
                .expectEvents(new SystemMessageCreatedEvent(MESSAGE_ID, "Maintenance tonight", T0 + 3600, true, ADMIN, T0));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, SystemMessageRecord.MAX_UNTIL})
    void givenNothing_whenUntilIsAtEitherEndOfItsRange_thenTheMessageIsCreated(long until) {
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, "m", until, false))
                .expectEvents(new SystemMessageCreatedEvent(MESSAGE_ID, "m", until, false, ADMIN, T0));
    }

    @ParameterizedTest
    @EnumSource(value = Role.class, names = {"ORG_ADMIN", "MEMBER"})
    void givenNothing_whenAnyoneButASystemAdministratorCreatesAMessage_thenForbidden(Role role) {
        fixture.givenNoPriorActivity()
                .when(create(new Actor(ADMIN, ORG, role), "Hello", T0 + 10, false))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.FORBIDDEN, "Only a system administrator"));
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, SystemMessageRecord.MAX_UNTIL + 1, Long.MIN_VALUE, Long.MAX_VALUE})
    void givenNothing_whenUntilIsOutOfRange_thenInvalidNamingUntil(long until) {
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, "Hello", until, false))
                .expectNoEvents()
                .expectException(invalidField("until"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\n\t"})
    void givenNothing_whenTheMessageIsBlank_thenInvalidNamingMessage(String message) {
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, message, T0, false))
                .expectNoEvents()
                .expectException(invalidField("message"));
    }

    @Test
    void givenNothing_whenTheMessageIsMissingOrTooLong_thenInvalidNamingMessage() {
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, null, T0, false))
                .expectNoEvents()
                .expectException(invalidField("message"));
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, "x".repeat(SystemMessageRecord.MAX_MESSAGE_LENGTH + 1), T0, false))
                .expectNoEvents()
                .expectException(invalidField("message"));
    }

    @Test
    void givenNothing_whenTheMessageHasTheLongestAllowedLength_thenItIsCreated() {
        String longest = "x".repeat(SystemMessageRecord.MAX_MESSAGE_LENGTH);
        fixture.givenNoPriorActivity()
                .when(create(SYSTEM_ADMIN, longest, T0, false))
                .expectEvents(new SystemMessageCreatedEvent(MESSAGE_ID, longest, T0, false, ADMIN, T0));
    }
}
