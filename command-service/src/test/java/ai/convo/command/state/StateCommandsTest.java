package ai.convo.command.state;

import static ai.convo.command.flow.FlowFixtures.EDITOR;
import static ai.convo.command.flow.FlowFixtures.FLOW;
import static ai.convo.command.flow.FlowFixtures.ORG;
import static ai.convo.command.flow.FlowFixtures.OTHER_FLOW;
import static ai.convo.command.flow.FlowFixtures.PROJECT;
import static ai.convo.command.flow.FlowFixtures.SAME_ORG_EDITOR;
import static ai.convo.command.flow.FlowFixtures.T0;
import static ai.convo.command.flow.FlowFixtures.T1;
import static ai.convo.command.flow.FlowFixtures.USER;
import static ai.convo.command.flow.FlowFixtures.domainError;
import static ai.convo.command.flow.FlowFixtures.flowCreated;
import static ai.convo.command.flow.FlowFixtures.stateCreated;

import ai.convo.command.flow.FlowAggregate;
import ai.convo.command.flow.FlowFixtures;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.state.AddIntentToStateCommand;
import ai.convo.contract.state.BatchStatesCommand;
import ai.convo.contract.state.CreateStateCommand;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.DeleteStateCommand;
import ai.convo.contract.state.RemoveDeletedIntentFromStatesCommand;
import ai.convo.contract.state.RemoveIntentFromStateCommand;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateId;
import ai.convo.contract.state.StateOperation;
import ai.convo.contract.state.StatePatch;
import ai.convo.contract.state.StateRecord;
import ai.convo.contract.state.StateType;
import ai.convo.contract.state.StateUpdatedEvent;
import ai.convo.contract.state.UpdateStateCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The (deprecated) states of a flow, decided by the flow aggregate: given events / when command / then events. */
class StateCommandsTest {

    static final String DEFAULT = "e00000000000000000000001";
    static final String QUIET = "e00000000000000000000002";
    static final String NEW = "e00000000000000000000009";
    static final String UNKNOWN_STATE = "e0000000000000000000dead";
    static final String DEFAULT_REF = "8b1c2a4e-0000-4000-8000-000000000001";
    static final String QUIET_REF = "8b1c2a4e-0000-4000-8000-000000000002";
    static final String NEW_REF = "8b1c2a4e-0000-4000-8000-000000000009";
    static final String GREET = "d00000000000000000000001";
    static final String ORDER = "d00000000000000000000002";
    static final String CANCEL = "d00000000000000000000003";
    static final String FOREIGN = "d00000000000000000000004";
    static final String MISSING = "d0000000000000000000dead";

    private FixtureConfiguration<FlowAggregate> fixture;

    @BeforeEach
    void setUp() {
        FlowFixtures.Fakes fakes = FlowFixtures.fakes();
        fakes.intents().with(FLOW, GREET, ORDER, CANCEL).with(OTHER_FLOW, FOREIGN);
        fixture = FlowFixtures.fixture(fakes);
    }

    // ---- history: a flow with a default state "Default" (naming GREET) and a state "Quiet" (naming GREET, ORDER)

    static StateCreatedEvent defaultCreated() {
        return stateCreated(DEFAULT, DEFAULT_REF, "Default", "blacklist", true, GREET);
    }

    static DefaultStateChangedEvent defaultChosen() {
        return new DefaultStateChangedEvent(FLOW, PROJECT, ORG, null, DEFAULT, USER, T0);
    }

    static StateCreatedEvent quietCreated() {
        return stateCreated(QUIET, QUIET_REF, "Quiet", "whitelist", false, GREET, ORDER);
    }

    static Object[] flowWithTwoStates(Object... more) {
        List<Object> events = new ArrayList<>(List.of(flowCreated(), defaultCreated(), defaultChosen(), quietCreated()));
        events.addAll(Arrays.asList(more));
        return events.toArray();
    }

    static StateRecord quietRecord() {
        return new StateRecord(QUIET, "Quiet", QUIET_REF, false, "whitelist", List.of(GREET, ORDER), T0, T0, USER, USER);
    }

    static List<IntentId> intents(String... ids) {
        return Arrays.stream(ids).map(IntentId::of).toList();
    }

    static CreateStateCommand create(String name, StateType type, boolean isDefault, String... intentIds) {
        return new CreateStateCommand(FlowId.of(FLOW), StateId.of(NEW), SAME_ORG_EDITOR, NEW_REF, name, type, isDefault,
                intents(intentIds), T1);
    }

    static UpdateStateCommand update(String stateId, StatePatch patch) {
        return new UpdateStateCommand(FlowId.of(FLOW), StateId.of(stateId), SAME_ORG_EDITOR, patch, T1);
    }

    static StateUpdatedEvent updated(String stateId, List<String> changed, String name, String type, boolean isDefault,
                                     String... intentIds) {
        return new StateUpdatedEvent(FLOW, PROJECT, ORG, stateId, changed, name, type, isDefault, List.of(intentIds),
                EDITOR, T1);
    }

    static String notAnIntentOfThisFlow(String field, String intentId) {
        return field + " names intent " + intentId + ", which is not an intent of flow " + FLOW
                + ". A state may only name intents of its own flow.";
    }

    @Nested
    @DisplayName("CreateStateCommand")
    class CreateState {

        @Test
        void givenAFlow_whenCreatingAState_thenStateCreatedAndItsRecordReturned() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("Checkout", StateType.WHITELIST, false, ORDER, CANCEL))
                    // then
                    .expectEvents(new StateCreatedEvent(FLOW, PROJECT, ORG, NEW, NEW_REF, "Checkout", "whitelist", false,
                            List.of(ORDER, CANCEL), EDITOR, T1))
                    .expectResultMessagePayload(new StateRecord(NEW, "Checkout", NEW_REF, false, "whitelist",
                            List.of(ORDER, CANCEL), T1, T1, EDITOR, EDITOR));
        }

        @Test
        void givenAFlowWithoutDefault_whenCreatingADefaultState_thenItBecomesTheDefaultWithNoPrevious() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(create("Start", StateType.BLACKLIST, true))
                    // then
                    .expectEvents(
                            new StateCreatedEvent(FLOW, PROJECT, ORG, NEW, NEW_REF, "Start", "blacklist", true, List.of(),
                                    EDITOR, T1),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, null, NEW, EDITOR, T1));
        }

        @Test
        void givenADefaultState_whenCreatingAnotherDefault_thenThePreviousDefaultIsDemotedInTheSameCommand() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("Start", StateType.BLACKLIST, true))
                    // then
                    .expectEvents(
                            new StateCreatedEvent(FLOW, PROJECT, ORG, NEW, NEW_REF, "Start", "blacklist", true, List.of(),
                                    EDITOR, T1),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, DEFAULT, NEW, EDITOR, T1));
        }

        @Test
        void givenAStateNamedQuiet_whenCreatingOneNamedQUIET_thenConflictBecauseNamesIgnoreCase() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("QUIET", StateType.BLACKLIST, false))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "already has a state named 'Quiet' (" + QUIET + ")"))
                    .expectNoEvents();
        }

        @Test
        void givenADeletedState_whenCreatingOneWithItsName_thenTheNameIsFreeAgain() {
            // given
            fixture.given(flowWithTwoStates(new StateDeletedEvent(FLOW, PROJECT, ORG, QUIET, USER, T0)))
                    // when
                    .when(create("quiet", StateType.BLACKLIST, false))
                    // then
                    .expectEvents(new StateCreatedEvent(FLOW, PROJECT, ORG, NEW, NEW_REF, "quiet", "blacklist", false,
                            List.of(), EDITOR, T1));
        }

        @Test
        void givenAState_whenCreatingAnotherWithTheSameId_thenConflict() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(new CreateStateCommand(FlowId.of(FLOW), StateId.of(QUIET), SAME_ORG_EDITOR, NEW_REF, "Other",
                            StateType.BLACKLIST, false, List.of(), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "A state with id " + QUIET + " already exists."))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenCreatingAStateNamingAnUnknownIntent_thenInvalidNamingTheFieldAndTheIntent() {
            // given
            String detail = notAnIntentOfThisFlow("intentIds", MISSING);
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("Checkout", StateType.WHITELIST, false, ORDER, MISSING))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, detail, Map.of("intentIds", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenCreatingAStateNamingAnIntentOfAnotherFlow_thenInvalid() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("Checkout", StateType.WHITELIST, false, FOREIGN))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, notAnIntentOfThisFlow("intentIds", FOREIGN)))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenCreatingAStateNamingSeveralBadIntents_thenEveryOneIsNamed() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("Checkout", StateType.WHITELIST, false, FOREIGN, GREET, MISSING))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "intentIds names intents " + FOREIGN + ", "
                            + MISSING + ", which are not intents of flow " + FLOW))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenCreatingAStateNamingAnIntentTwice_thenItIsNamedOnce() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(create("Checkout", StateType.WHITELIST, false, ORDER, GREET, ORDER))
                    // then
                    .expectEvents(new StateCreatedEvent(FLOW, PROJECT, ORG, NEW, NEW_REF, "Checkout", "whitelist", false,
                            List.of(ORDER, GREET), EDITOR, T1));
        }
    }

    @Nested
    @DisplayName("UpdateStateCommand")
    class UpdateState {

        @Test
        void givenAState_whenThePatchIsEmpty_thenNoEventsAndTheCurrentRecord() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, StatePatch.empty()))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(quietRecord());
        }

        @Test
        void givenAState_whenThePatchRepeatsEveryCurrentValue_thenNoEvents() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch("Quiet", StateType.WHITELIST, false, intents(GREET, ORDER, GREET))))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(quietRecord());
        }

        @Test
        void givenAState_whenRenamedAndRetyped_thenStateUpdatedWithTheFullNewStateAndTheChangedFields() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch("Silent", StateType.BLACKLIST, null, null)))
                    // then
                    .expectEvents(updated(QUIET, List.of("name", "type"), "Silent", "blacklist", false, GREET, ORDER))
                    .expectResultMessagePayload(new StateRecord(QUIET, "Silent", QUIET_REF, false, "blacklist",
                            List.of(GREET, ORDER), T0, T1, USER, EDITOR));
        }

        @Test
        void givenAState_whenRenamedToItsOwnNameInOtherCase_thenAllowed() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch("QUIET", null, null, null)))
                    // then
                    .expectEvents(updated(QUIET, List.of("name"), "QUIET", "whitelist", false, GREET, ORDER));
        }

        @Test
        void givenTwoStates_whenRenamingOneToTheOthersName_thenConflict() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch("default", null, null, null)))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "already has a state named 'Default' (" + DEFAULT + ")"))
                    .expectNoEvents();
        }

        @Test
        void givenAState_whenItsIntentIdsAreReplaced_thenTheNewListIsRecorded() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch(null, null, null, intents(CANCEL, GREET))))
                    // then
                    .expectEvents(updated(QUIET, List.of("intentIds"), "Quiet", "whitelist", false, CANCEL, GREET));
        }

        @Test
        void givenAState_whenItsIntentIdsAreCleared_thenTheListIsEmpty() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch(null, null, null, List.of())))
                    // then
                    .expectEvents(updated(QUIET, List.of("intentIds"), "Quiet", "whitelist", false));
        }

        @Test
        void givenAState_whenItsIntentIdsNameAnIntentOfAnotherFlow_thenInvalidNamingIt() {
            // given
            String detail = notAnIntentOfThisFlow("intentIds", FOREIGN);
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch("Renamed", null, null, intents(GREET, FOREIGN))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, detail, Map.of("intentIds", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenANonDefaultState_whenMadeDefault_thenThePreviousDefaultIsDemotedInTheSameCommand() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(QUIET, new StatePatch(null, null, true, null)))
                    // then
                    .expectEvents(
                            updated(QUIET, List.of("isDefault"), "Quiet", "whitelist", true, GREET, ORDER),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, DEFAULT, QUIET, EDITOR, T1))
                    .expectResultMessagePayload(new StateRecord(QUIET, "Quiet", QUIET_REF, true, "whitelist",
                            List.of(GREET, ORDER), T0, T1, USER, EDITOR));
        }

        @Test
        void givenADemotedDefault_whenMadeDefaultAgain_thenTheStateThatTookItOverIsTheOneDemoted() {
            // given: QUIET took the default over from DEFAULT
            fixture.given(flowWithTwoStates(
                            new StateUpdatedEvent(FLOW, PROJECT, ORG, QUIET, List.of("isDefault"), "Quiet", "whitelist",
                                    true, List.of(GREET, ORDER), USER, T0),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, DEFAULT, QUIET, USER, T0)))
                    // when
                    .when(update(DEFAULT, new StatePatch(null, null, true, null)))
                    // then
                    .expectEvents(
                            updated(DEFAULT, List.of("isDefault"), "Default", "blacklist", true, GREET),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, QUIET, DEFAULT, EDITOR, T1));
        }

        @Test
        void givenTheDefaultState_whenItStopsBeingDefault_thenTheFlowHasNoDefaultAndNothingIsPromoted() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(DEFAULT, new StatePatch(null, null, false, null)))
                    // then
                    .expectEvents(updated(DEFAULT, List.of("isDefault"), "Default", "blacklist", false, GREET));
        }

        @Test
        void givenAFlowWithoutDefault_whenAStateIsMadeDefault_thenNoPreviousDefaultIsNamed() {
            // given
            fixture.given(flowWithTwoStates(new StateUpdatedEvent(FLOW, PROJECT, ORG, DEFAULT, List.of("isDefault"),
                            "Default", "blacklist", false, List.of(GREET), USER, T0)))
                    // when
                    .when(update(QUIET, new StatePatch(null, null, true, null)))
                    // then
                    .expectEvents(
                            updated(QUIET, List.of("isDefault"), "Quiet", "whitelist", true, GREET, ORDER),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, null, QUIET, EDITOR, T1));
        }

        @Test
        void givenAFlow_whenUpdatingAnUnknownState_thenNotFound() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(update(UNKNOWN_STATE, new StatePatch("x", null, null, null)))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "State " + UNKNOWN_STATE
                            + " does not exist in flow " + FLOW + "."))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("DeleteStateCommand")
    class DeleteState {

        @Test
        void givenAState_whenDeleted_thenStateDeleted() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(new DeleteStateCommand(FlowId.of(FLOW), StateId.of(QUIET), SAME_ORG_EDITOR, T1))
                    // then
                    .expectEvents(new StateDeletedEvent(FLOW, PROJECT, ORG, QUIET, EDITOR, T1))
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenTheDefaultState_whenDeleted_thenAllowedAndTheFlowHasNoDefault() {
            // given
            fixture.given(flowWithTwoStates(new StateDeletedEvent(FLOW, PROJECT, ORG, DEFAULT, USER, T0)))
                    // when: a new default names no previous one
                    .when(update(QUIET, new StatePatch(null, null, true, null)))
                    // then
                    .expectEvents(
                            updated(QUIET, List.of("isDefault"), "Quiet", "whitelist", true, GREET, ORDER),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, null, QUIET, EDITOR, T1));
        }

        @Test
        void givenADeletedState_whenDeletedAgain_thenNotFound() {
            // given
            fixture.given(flowWithTwoStates(new StateDeletedEvent(FLOW, PROJECT, ORG, QUIET, USER, T0)))
                    // when
                    .when(new DeleteStateCommand(FlowId.of(FLOW), StateId.of(QUIET), SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "State " + QUIET + " does not exist"))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("AddIntentToStateCommand")
    class AddIntent {

        static AddIntentToStateCommand add(String stateId, String intentId) {
            return new AddIntentToStateCommand(FlowId.of(FLOW), StateId.of(stateId), SAME_ORG_EDITOR,
                    IntentId.of(intentId), T1);
        }

        @Test
        void givenAState_whenAddingAnIntentOfTheFlow_thenItIsAppendedAndTheFullRecordReturned() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(add(QUIET, CANCEL))
                    // then
                    .expectEvents(updated(QUIET, List.of("intentIds"), "Quiet", "whitelist", false, GREET, ORDER, CANCEL))
                    .expectResultMessagePayload(new StateRecord(QUIET, "Quiet", QUIET_REF, false, "whitelist",
                            List.of(GREET, ORDER, CANCEL), T0, T1, USER, EDITOR));
        }

        @Test
        void givenAStateNamingTheIntent_whenAddingItAgain_thenNoEventsAndTheCurrentRecord() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(add(QUIET, ORDER))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(quietRecord());
        }

        @Test
        void givenAState_whenAddingAnUnknownIntent_thenInvalidNamingTheFieldAndTheIntent() {
            // given
            String detail = notAnIntentOfThisFlow("intentId", MISSING);
            fixture.given(flowWithTwoStates())
                    // when
                    .when(add(QUIET, MISSING))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, detail, Map.of("intentId", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenAState_whenAddingAnIntentOfAnotherFlow_thenInvalid() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(add(QUIET, FOREIGN))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, notAnIntentOfThisFlow("intentId", FOREIGN)))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenAddingToAnUnknownState_thenNotFound() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(add(UNKNOWN_STATE, GREET))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "State " + UNKNOWN_STATE))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("RemoveIntentFromStateCommand")
    class RemoveIntent {

        static RemoveIntentFromStateCommand remove(String stateId, String intentId) {
            return new RemoveIntentFromStateCommand(FlowId.of(FLOW), StateId.of(stateId), SAME_ORG_EDITOR,
                    IntentId.of(intentId), T1);
        }

        @Test
        void givenAStateNamingTheIntent_whenRemovingIt_thenTheRestStaysInOrder() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(remove(QUIET, GREET))
                    // then
                    .expectEvents(updated(QUIET, List.of("intentIds"), "Quiet", "whitelist", false, ORDER))
                    .expectResultMessagePayload(new StateRecord(QUIET, "Quiet", QUIET_REF, false, "whitelist",
                            List.of(ORDER), T0, T1, USER, EDITOR));
        }

        @Test
        void givenAStateNotNamingTheIntent_whenRemovingIt_thenNoEventsAndTheCurrentRecord() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(remove(QUIET, MISSING))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(quietRecord());
        }

        @Test
        void givenAFlow_whenRemovingFromAnUnknownState_thenNotFound() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(remove(UNKNOWN_STATE, GREET))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "State " + UNKNOWN_STATE))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("RemoveDeletedIntentFromStatesCommand")
    class RemoveDeletedIntent {

        static RemoveDeletedIntentFromStatesCommand intentDeleted(String intentId) {
            return new RemoveDeletedIntentFromStatesCommand(FlowId.of(FLOW), IntentId.of(intentId), EDITOR, T1);
        }

        @Test
        void givenTwoStatesNamingTheIntent_whenItIsDeleted_thenEachStateForgetsItWithWhoDeletedItAndWhen() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(intentDeleted(GREET))
                    // then
                    .expectEvents(
                            updated(DEFAULT, List.of("intentIds"), "Default", "blacklist", true),
                            updated(QUIET, List.of("intentIds"), "Quiet", "whitelist", false, ORDER));
        }

        @Test
        void givenOneStateNamingTheIntent_whenItIsDeleted_thenOnlyThatStateChanges() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(intentDeleted(ORDER))
                    // then
                    .expectEvents(updated(QUIET, List.of("intentIds"), "Quiet", "whitelist", false, GREET));
        }

        @Test
        void givenNoStateNamingTheIntent_whenItIsDeleted_thenNoEvents() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(intentDeleted(CANCEL))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("BatchStatesCommand")
    class BatchStates {

        BatchStatesCommand batch(StateOperation... operations) {
            return new BatchStatesCommand(FlowId.of(FLOW), SAME_ORG_EDITOR, List.of(operations));
        }

        @Test
        void givenTwoStates_whenABatchCreatesADefaultRenamesOneAndDeletesTheOther_thenTheEventsOfEachInOrder() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(batch(StateOperation.create(create("Busy", StateType.WHITELIST, true, ORDER)),
                            StateOperation.update(update(QUIET, new StatePatch("Silent", null, null, null))),
                            StateOperation.delete(new DeleteStateCommand(FlowId.of(FLOW), StateId.of(DEFAULT),
                                    SAME_ORG_EDITOR, T1))))
                    // then: the new default demotes the old one, as its own request would
                    .expectEvents(new StateCreatedEvent(FLOW, PROJECT, ORG, NEW, NEW_REF, "Busy", "whitelist", true,
                                    List.of(ORDER), EDITOR, T1),
                            new DefaultStateChangedEvent(FLOW, PROJECT, ORG, DEFAULT, NEW, EDITOR, T1),
                            updated(QUIET, List.of("name"), "Silent", "whitelist", false, GREET, ORDER),
                            new StateDeletedEvent(FLOW, PROJECT, ORG, DEFAULT, EDITOR, T1))
                    .expectResultMessagePayload(new BatchResult(List.of(NEW), List.of(QUIET), List.of(DEFAULT)));
        }

        @Test
        void givenABatchWhoseSecondCreateTakesTheFirstsName_whenSent_thenConflictNamingItAndNothingStored() {
            // given
            fixture.given(flowWithTwoStates())
                    // when: the first create is fine alone; the second reuses a name of the batch's own making
                    .when(batch(StateOperation.update(update(QUIET, new StatePatch("Calm", null, null, null))),
                            StateOperation.create(create("calm", StateType.BLACKLIST, false))))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "operations[1] (create): "))
                    .expectNoEvents();
        }

        @Test
        void givenABatchNamingAnIntentOfAnotherFlow_whenSent_thenInvalidAndNothingStored() {
            // given
            fixture.given(flowWithTwoStates())
                    // when
                    .when(batch(StateOperation.create(create("Odd", StateType.WHITELIST, false, FOREIGN))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "operations[0] (create): "
                            + notAnIntentOfThisFlow("intentIds", FOREIGN)))
                    .expectNoEvents();
        }
    }
}
