package ai.convo.command.flow;

import static ai.convo.command.flow.FlowFixtures.EDITOR;
import static ai.convo.command.flow.FlowFixtures.FLOW;
import static ai.convo.command.flow.FlowFixtures.FLOW_REF;
import static ai.convo.command.flow.FlowFixtures.ORG;
import static ai.convo.command.flow.FlowFixtures.OWNER;
import static ai.convo.command.flow.FlowFixtures.PROJECT;
import static ai.convo.command.flow.FlowFixtures.SAME_ORG_EDITOR;
import static ai.convo.command.flow.FlowFixtures.STRANGER;
import static ai.convo.command.flow.FlowFixtures.T0;
import static ai.convo.command.flow.FlowFixtures.T1;
import static ai.convo.command.flow.FlowFixtures.USER;
import static ai.convo.command.flow.FlowFixtures.domainError;
import static ai.convo.command.flow.FlowFixtures.flowCreated;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.CreateFlowCommand;
import ai.convo.contract.flow.DeleteFlowCommand;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.flow.FlowPatch;
import ai.convo.contract.flow.FlowRecord;
import ai.convo.contract.flow.FlowSettingsUpdatedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.flow.UpdateFlowCommand;
import ai.convo.contract.flow.UpdateFlowSettingsCommand;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.settings.SettingsRecord;
import ai.convo.contract.state.AddIntentToStateCommand;
import ai.convo.contract.state.CreateStateCommand;
import ai.convo.contract.state.DeleteStateCommand;
import ai.convo.contract.state.RemoveIntentFromStateCommand;
import ai.convo.contract.state.StateId;
import ai.convo.contract.state.StatePatch;
import ai.convo.contract.state.StateType;
import ai.convo.contract.state.UpdateStateCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.axonframework.eventsourcing.AggregateDeletedException;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The write model of a flow, in given (past events) / when (command) / then (events or error). */
class FlowAggregateTest {

    static final String STATE = "e00000000000000000000001";
    static final String INTENT = "d00000000000000000000001";

    private FlowFixtures.Fakes fakes;
    private FixtureConfiguration<FlowAggregate> fixture;

    @BeforeEach
    void setUp() {
        fakes = FlowFixtures.fakes();
        fixture = FlowFixtures.fixture(fakes);
    }

    static FlowRecord mainRecord() {
        return new FlowRecord(FLOW, "Main", "The main flow", FLOW_REF, PROJECT, T0, T0, USER, USER);
    }

    static UpdateFlowCommand update(FlowPatch patch) {
        return new UpdateFlowCommand(FlowId.of(FLOW), SAME_ORG_EDITOR, patch, T1);
    }

    @Nested
    @DisplayName("CreateFlowCommand")
    class CreateFlow {

        @Test
        void givenAVisibleProject_whenCreatingAFlow_thenFlowCreatedWithWhoAndWhen() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateFlowCommand(FlowId.of(FLOW), ProjectId.of(PROJECT), OWNER, FLOW_REF, "Main",
                            "The main flow", T0))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(flowCreated())
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenAVisibleProject_whenCreatingAFlowWithoutDescription_thenTheDescriptionIsEmpty() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateFlowCommand(FlowId.of(FLOW), ProjectId.of(PROJECT), OWNER, FLOW_REF, "Main", null, T0))
                    // then
                    .expectEvents(new FlowCreatedEvent(FLOW, PROJECT, ORG, FLOW_REF, "Main", "", USER, T0));
        }

        @Test
        void givenAMissingOrDeletedProject_whenCreatingAFlow_thenNotFoundAndNoEvents() {
            // given
            fakes.projects().hidden.add(PROJECT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateFlowCommand(FlowId.of(FLOW), ProjectId.of(PROJECT), OWNER, FLOW_REF, "Main", "", T0))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAProjectOfAnotherOrganisation_whenCreatingAFlow_thenNotFoundAsIfItDidNotExist() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateFlowCommand(FlowId.of(FLOW), ProjectId.of(PROJECT), STRANGER, FLOW_REF, "Main", "", T0))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("UpdateFlowCommand")
    class UpdateFlow {

        @Test
        void givenAFlow_whenRenamed_thenFlowUpdatedWithOnlyNameChangedAndTheNewRecordReturned() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(update(new FlowPatch("Checkout", null)))
                    // then
                    .expectEvents(new FlowUpdatedEvent(FLOW, PROJECT, ORG, List.of("name"), "Checkout", "The main flow",
                            EDITOR, T1))
                    .expectResultMessagePayload(new FlowRecord(FLOW, "Checkout", "The main flow", FLOW_REF, PROJECT, T0,
                            T1, USER, EDITOR));
        }

        @Test
        void givenAFlow_whenNameAndDescriptionChange_thenBothAreListedAsChanged() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(update(new FlowPatch("Checkout", "")))
                    // then
                    .expectEvents(new FlowUpdatedEvent(FLOW, PROJECT, ORG, List.of("name", "description"), "Checkout", "",
                            EDITOR, T1));
        }

        @Test
        void givenAFlow_whenOnlyTheDescriptionChanges_thenOnlyDescriptionIsChanged() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(update(new FlowPatch(null, "Handles returns")))
                    // then
                    .expectEvents(new FlowUpdatedEvent(FLOW, PROJECT, ORG, List.of("description"), "Main",
                            "Handles returns", EDITOR, T1));
        }

        @Test
        void givenAFlow_whenThePatchIsEmptyOrRepeatsTheCurrentValues_thenNoEventsAndTheCurrentRecord() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(update(new FlowPatch("Main", "The main flow")))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(mainRecord());
        }

        @Test
        void givenAFlow_whenThePatchIsEmpty_thenNoEvents() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(update(FlowPatch.empty()))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(mainRecord());
        }

        @Test
        void givenARenamedFlow_whenRenamedAgain_thenTheRecordKeepsCreationMetaAndTakesTheNewChange() {
            // given
            fixture.given(flowCreated(), new FlowUpdatedEvent(FLOW, PROJECT, ORG, List.of("name"), "Checkout",
                            "The main flow", EDITOR, T1))
                    // when
                    .when(update(new FlowPatch(null, null)))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new FlowRecord(FLOW, "Checkout", "The main flow", FLOW_REF, PROJECT, T0,
                            T1, USER, EDITOR));
        }
    }

    @Nested
    @DisplayName("UpdateFlowSettingsCommand")
    class UpdateFlowSettings {

        static final String LOCALE = "d10000000000000000000001";
        static final String FOREIGN_LOCALE = "d10000000000000000000002";

        UpdateFlowSettingsCommand settings(Map<String, Object> changes, Map<String, Boolean> locales) {
            return new UpdateFlowSettingsCommand(FlowId.of(FLOW), SAME_ORG_EDITOR, changes, locales, T1);
        }

        @Test
        void givenAFlow_whenSettingsAndALocaleSettingChange_thenOnlyTheChangedOnesAreInTheEventAndTheRecordShowsAll() {
            // given: a locale of the flow's project
            fakes.locales().projects.put(LOCALE, PROJECT);
            Map<String, Object> changes = new LinkedHashMap<>();
            changes.put("flowIntentMappingOrder", "main");
            changes.put("intentThreshold.lower", 0.4); // the default: no change
            changes.put("positiveConfirmationWords", new ArrayList<>(List.of("ja")));
            fixture.given(flowCreated())
                    // when
                    .when(settings(changes, Map.of(LOCALE, true)))
                    // then
                    .expectEvents(new FlowSettingsUpdatedEvent(FLOW, PROJECT, ORG,
                            Map.of("flowIntentMappingOrder", "main", "positiveConfirmationWords", List.of("ja")),
                            Map.of(LOCALE, true), EDITOR, T1))
                    .expectResultMessagePayloadMatching(resultWith(record -> record.stored().equals(Map.of(
                            "flowIntentMappingOrder", "main", "positiveConfirmationWords", List.of("ja")))
                            && record.localeSettings().equals(Map.of(LOCALE, true)) && record.lastChanged() == T1
                            && record.lastChangedBy().equals(EDITOR) && record.createdAt() == T0));
        }

        @Test
        void givenSettingsAlreadySo_whenTheSameValuesAreSent_thenNoEvent() {
            // given
            fakes.locales().projects.put(LOCALE, PROJECT);
            fixture.given(flowCreated(), new FlowSettingsUpdatedEvent(FLOW, PROJECT, ORG, Map.of("yesNoIntentThreshold", 0.8),
                            Map.of(LOCALE, false), EDITOR, T1))
                    // when
                    .when(settings(Map.of("yesNoIntentThreshold", 0.8), Map.of(LOCALE, false)))
                    // then
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenTheThresholdsWouldCross_thenInvalidAndNothingStored() {
            // given
            fixture.given(flowCreated())
                    // when: lower above the default upper (0.6)
                    .when(settings(Map.of("intentThreshold.lower", 0.7), Map.of()))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "must not be above intentThreshold.upper"))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenALocaleOfAnotherProjectOrNoLocaleIsNamed_thenInvalidAndNothingStored() {
            // given
            fakes.locales().projects.put(FOREIGN_LOCALE, "a00000000000000000000009");
            fixture.given(flowCreated())
                    // when / then
                    .when(settings(Map.of(), Map.of(FOREIGN_LOCALE, true)))
                    .expectException(domainError(DomainException.Kind.INVALID, "is not a locale of this flow's project"))
                    .expectNoEvents();
            fixture.given(flowCreated())
                    .when(settings(Map.of(), Map.of(LOCALE, true)))
                    .expectException(domainError(DomainException.Kind.INVALID, "is not a locale of this flow's project"))
                    .expectNoEvents();
        }

        @Test
        void givenAFlowOfAnotherOrganisation_whenItsSettingsChange_thenNotFound() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(new UpdateFlowSettingsCommand(FlowId.of(FLOW), STRANGER, Map.of("implicitSlotParsing", "full"),
                            Map.of(), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + FLOW + " does not exist."))
                    .expectNoEvents();
        }
    }

    /** A result that is a SettingsRecord passing {@code check}. */
    static org.hamcrest.Matcher<Object> resultWith(java.util.function.Predicate<SettingsRecord> check) {
        return new org.hamcrest.TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(Object item) {
                return item instanceof SettingsRecord record && check.test(record);
            }

            @Override
            public void describeTo(org.hamcrest.Description description) {
                description.appendText("the expected settings record");
            }
        };
    }

    @Nested
    @DisplayName("DeleteFlowCommand")
    class DeleteFlow {

        @Test
        void givenAFlow_whenDeleted_thenFlowDeletedAndAggregateMarkedDeleted() {
            // given
            fixture.given(flowCreated())
                    // when
                    .when(new DeleteFlowCommand(FlowId.of(FLOW), SAME_ORG_EDITOR, T1))
                    // then
                    .expectEvents(new FlowDeletedEvent(FLOW, PROJECT, ORG, EDITOR, T1))
                    .expectMarkedDeleted();
        }
    }

    // ---- a deleted flow: every command finds it gone (404 over HTTP)

    static Stream<Arguments> commandsOnTheFlow(ai.convo.contract.common.Actor actor) {
        FlowId flow = FlowId.of(FLOW);
        return Stream.of(
                Arguments.of("update flow", new UpdateFlowCommand(flow, actor, new FlowPatch("x", null), T1)),
                Arguments.of("delete flow", new DeleteFlowCommand(flow, actor, T1)),
                Arguments.of("create state", new CreateStateCommand(flow, StateId.of(STATE), actor, FLOW_REF, "s",
                        StateType.BLACKLIST, false, List.of(), T1)),
                Arguments.of("update state", new UpdateStateCommand(flow, StateId.of(STATE), actor,
                        new StatePatch("t", null, null, null), T1)),
                Arguments.of("delete state", new DeleteStateCommand(flow, StateId.of(STATE), actor, T1)),
                Arguments.of("add intent", new AddIntentToStateCommand(flow, StateId.of(STATE), actor,
                        IntentId.of(INTENT), T1)),
                Arguments.of("remove intent", new RemoveIntentFromStateCommand(flow, StateId.of(STATE), actor,
                        IntentId.of(INTENT), T1)));
    }

    static Stream<Arguments> commandsOfTheOwnOrganisation() {
        return commandsOnTheFlow(SAME_ORG_EDITOR);
    }

    static Stream<Arguments> commandsOfAnotherOrganisation() {
        return commandsOnTheFlow(STRANGER);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOfTheOwnOrganisation")
    void givenADeletedFlow_whenAnyCommandArrives_thenTheAggregateIsGone(String name, Object command) {
        // given
        fixture.given(flowCreated(), FlowFixtures.stateCreated(STATE, FLOW_REF, "s", "blacklist", false),
                        new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, T0))
                // when
                .when(command)
                // then
                .expectException(AggregateDeletedException.class)
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOfAnotherOrganisation")
    void givenAFlow_whenAnActorOfAnotherOrganisationSendsACommand_thenNotFoundAsIfItDidNotExist(String name,
                                                                                                 Object command) {
        // given
        fixture.given(flowCreated(), FlowFixtures.stateCreated(STATE, FLOW_REF, "s", "blacklist", false))
                // when
                .when(command)
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + FLOW + " does not exist."))
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOfTheOwnOrganisation")
    void givenAFlowWhoseProjectWasDeleted_whenAnyCommandArrives_thenNotFound(String name, Object command) {
        // given: the flow lookup forgot the flow with its project
        fakes.flows().hidden.add(FLOW);
        fixture.given(flowCreated(), FlowFixtures.stateCreated(STATE, FLOW_REF, "s", "blacklist", false))
                // when
                .when(command)
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + FLOW + " does not exist."))
                .expectNoEvents();
    }
}
