package ai.convo.command.function;

import static ai.convo.command.token.DomainErrors.domainError;

import ai.convo.command.token.DomainErrors;
import ai.convo.command.token.FakeProjects;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.function.CreateFunctionCommand;
import ai.convo.contract.function.DeleteFunctionCommand;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionId;
import ai.convo.contract.function.FunctionPatch;
import ai.convo.contract.function.FunctionRecord;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.function.UpdateFunctionCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import java.util.List;
import java.util.stream.Stream;
import org.axonframework.eventsourcing.AggregateDeletedException;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The write model of a Function, in given (past events) / when (command) / then (events or error). */
class FunctionAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String EDITOR = "c00000000000000000000002";
    static final String FUNCTION = "f00000000000000000000001";
    static final String NEW = "f00000000000000000000002";
    static final String REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final String CODE = "export default async ({ cognigy }) => { return 1; }";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor SAME_ORG_EDITOR = new Actor(EDITOR, ORG, Role.ORG_ADMIN);
    static final Actor STRANGER = new Actor(EDITOR, OTHER_ORG, Role.ORG_ADMIN);

    private FixtureConfiguration<FunctionAggregate> fixture;
    private FakeProjects projects;

    @BeforeEach
    void setUp() {
        projects = new FakeProjects().with(PROJECT, ORG);
        fixture = new AggregateTestFixture<>(FunctionAggregate.class);
        fixture.registerInjectableResource(projects);
    }

    static FunctionCreatedEvent functionCreated() {
        return new FunctionCreatedEvent(FUNCTION, PROJECT, ORG, REF, "Send mail", CODE, false, USER, T0);
    }

    static CreateFunctionCommand create(String name, String code, boolean disabled) {
        return new CreateFunctionCommand(FunctionId.of(NEW), ProjectId.of(PROJECT), OWNER, REF, name, code, disabled, T1);
    }

    static UpdateFunctionCommand update(FunctionPatch patch) {
        return new UpdateFunctionCommand(FunctionId.of(FUNCTION), SAME_ORG_EDITOR, patch, T1);
    }

    // ---- create

    @Nested
    @DisplayName("CreateFunctionCommand")
    class Create {

        @Test
        void givenAVisibleProject_whenCreatingAFunction_thenFunctionCreated() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create("Send mail", CODE, true))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(new FunctionCreatedEvent(NEW, PROJECT, ORG, REF, "Send mail", CODE, true, USER, T1))
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenAVisibleProject_whenTheCodeIsExactlyAtTheLimit_thenFunctionCreated() {
            // given
            String code = "x".repeat(FunctionRecord.MAX_CODE_LENGTH);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create("Big", code, false))
                    // then
                    .expectEvents(new FunctionCreatedEvent(NEW, PROJECT, ORG, REF, "Big", code, false, USER, T1));
        }

        @Test
        void givenAVisibleProject_whenTheCodeIsEmpty_thenFunctionCreated() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create("Empty", "", false))
                    // then
                    .expectEvents(new FunctionCreatedEvent(NEW, PROJECT, ORG, REF, "Empty", "", false, USER, T1));
        }

        @Test
        void givenAnUnknownProject_whenCreatingAFunction_thenNotFound() {
            // given
            projects.without(PROJECT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create("Send mail", CODE, false))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAProjectOfAnotherOrganisation_whenCreatingAFunction_thenNotFound() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateFunctionCommand(FunctionId.of(NEW), ProjectId.of(PROJECT), STRANGER, REF, "Mine",
                            CODE, false, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("ai.convo.command.function.FunctionAggregateTest#invalidCreates")
        void givenAVisibleProject_whenCreatingAnInvalidFunction_thenInvalidNamingTheField(String field,
                                                                                          CreateFunctionCommand command) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(command)
                    // then
                    .expectException(DomainErrors.invalidField(field))
                    .expectNoEvents();
        }

        @Test
        void givenAVisibleProject_whenTheCodeIsOneOverTheLimit_thenInvalidNamingTheLimitAndTheLength() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create("Big", "x".repeat(FunctionRecord.MAX_CODE_LENGTH + 1), false))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID,
                            "code must be at most 500000 characters; got 500001."))
                    .expectNoEvents();
        }
    }

    static Stream<Arguments> invalidCreates() {
        return Stream.of(
                Arguments.of("name", create(" ", CODE, false)),
                Arguments.of("name", create(null, CODE, false)),
                Arguments.of("name", create("n".repeat(201), CODE, false)),
                Arguments.of("code", create("Fine", null, false)),
                Arguments.of("code", create("Fine", "x".repeat(500_001), false)));
    }

    // ---- update

    @Nested
    @DisplayName("UpdateFunctionCommand")
    class Update {

        @Test
        void givenAFunction_whenEveryFieldChanges_thenFunctionUpdatedWithFullStateAndChangedFields() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(update(new FunctionPatch("Send SMS", "return 2;", true)))
                    // then
                    .expectEvents(new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("name", "code", "isDisabled"),
                            "Send SMS", "return 2;", true, EDITOR, T1))
                    .expectResultMessagePayload(new FunctionRecord(FUNCTION, "Send SMS", "return 2;", REF, true, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenAFunction_whenOnlyDisabled_thenTheEventStillCarriesTheFullState() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(update(new FunctionPatch(null, null, true)))
                    // then
                    .expectEvents(new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("isDisabled"), "Send mail",
                            CODE, true, EDITOR, T1));
        }

        @Test
        void givenAFunction_whenThePatchRepeatsTheCurrentValues_thenNothingChanges() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(update(new FunctionPatch("Send mail", CODE, false)))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(new FunctionRecord(FUNCTION, "Send mail", CODE, REF, false, T0, T0,
                            USER, USER));
        }

        @Test
        void givenAnUpdatedFunction_whenAnEmptyPatchArrives_thenTheLatestStateIsAnswered() {
            // given
            fixture.given(functionCreated(), new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("code"),
                            "Send mail", "return 3;", false, EDITOR, T1))
                    // when
                    .when(update(FunctionPatch.empty()))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new FunctionRecord(FUNCTION, "Send mail", "return 3;", REF, false, T0,
                            T1, USER, EDITOR));
        }

        @Test
        void givenADisabledFunction_whenThePatchDisablesItAgain_thenNothingChangesAndItIsAnsweredDisabled() {
            // given: FunctionUpdatedEvent revision 2 (isDisabled) is what the aggregate's state comes from
            fixture.given(functionCreated(), new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("isDisabled"),
                            "Send mail", CODE, true, EDITOR, T1))
                    // when
                    .when(update(new FunctionPatch(null, null, true)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new FunctionRecord(FUNCTION, "Send mail", CODE, REF, true, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenADisabledFunction_whenThePatchEnablesIt_thenIsDisabledChangesBack() {
            // given
            fixture.given(functionCreated(), new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("isDisabled"),
                            "Send mail", CODE, true, EDITOR, T1))
                    // when
                    .when(update(new FunctionPatch(null, null, false)))
                    // then
                    .expectEvents(new FunctionUpdatedEvent(FUNCTION, PROJECT, ORG, List.of("isDisabled"), "Send mail",
                            CODE, false, EDITOR, T1));
        }

        @Test
        void givenAFunction_whenTheCodeBecomesTooLong_thenInvalidNamingTheLimitAndTheLength() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(update(new FunctionPatch(null, "x".repeat(500_002), null)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "at most 500000 characters; got 500002"))
                    .expectNoEvents();
        }

        @Test
        void givenAFunction_whenTheNameBecomesBlank_thenInvalid() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(update(new FunctionPatch("  ", null, null)))
                    // then
                    .expectException(DomainErrors.invalidField("name"))
                    .expectNoEvents();
        }

        @Test
        void givenAFunction_whenAStrangerUpdatesIt_thenNotFoundAsIfItDidNotExist() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(new UpdateFunctionCommand(FunctionId.of(FUNCTION), STRANGER, new FunctionPatch("x", null, null), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Function " + FUNCTION + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAFunctionWhoseProjectWasDeleted_whenUpdatingIt_thenNotFound() {
            // given
            projects.without(PROJECT);
            fixture.given(functionCreated())
                    // when
                    .when(update(new FunctionPatch("x", null, null)))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Function " + FUNCTION + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenADeletedFunction_whenUpdatingIt_thenTheAggregateIsGone() {
            // given
            fixture.given(functionCreated(), new FunctionDeletedEvent(FUNCTION, PROJECT, ORG, USER, T0))
                    // when
                    .when(update(new FunctionPatch("x", null, null)))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }
    }

    // ---- delete

    @Nested
    @DisplayName("DeleteFunctionCommand")
    class Delete {

        @Test
        void givenAFunction_whenDeletingIt_thenFunctionDeletedAndMarkedDeleted() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(new DeleteFunctionCommand(FunctionId.of(FUNCTION), SAME_ORG_EDITOR, T1))
                    // then
                    .expectEvents(new FunctionDeletedEvent(FUNCTION, PROJECT, ORG, EDITOR, T1))
                    .expectMarkedDeleted();
        }

        @Test
        void givenADeletedFunction_whenDeletingItAgain_thenTheAggregateIsGone() {
            // given
            fixture.given(functionCreated(), new FunctionDeletedEvent(FUNCTION, PROJECT, ORG, USER, T0))
                    // when
                    .when(new DeleteFunctionCommand(FunctionId.of(FUNCTION), SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }

        @Test
        void givenAFunction_whenAStrangerDeletesIt_thenNotFound() {
            // given
            fixture.given(functionCreated())
                    // when
                    .when(new DeleteFunctionCommand(FunctionId.of(FUNCTION), STRANGER, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Function " + FUNCTION + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAFunctionWhoseProjectWasDeleted_whenDeletingIt_thenNotFound() {
            // given
            projects.without(PROJECT);
            fixture.given(functionCreated())
                    // when
                    .when(new DeleteFunctionCommand(FunctionId.of(FUNCTION), SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Function " + FUNCTION + " does not exist."))
                    .expectNoEvents();
        }
    }
}
