package ai.convo.command.intent;

import static org.hamcrest.Matchers.containsString;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.BatchOperations.Op;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.identity.Role;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.AddIntentLocalizationCommand;
import ai.convo.contract.intent.BatchSentencesCommand;
import ai.convo.contract.intent.CreateSentenceCommand;
import ai.convo.contract.intent.DeleteIntentCommand;
import ai.convo.contract.intent.DeleteSentenceCommand;
import ai.convo.contract.intent.DetachIntentFromParentCommand;
import ai.convo.contract.intent.IntentBias;
import ai.convo.contract.intent.IntentContent;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.intent.IntentPatch;
import ai.convo.contract.intent.IntentRecord;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.RemoveIntentLocalizationCommand;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.intent.SentenceId;
import ai.convo.contract.intent.SentenceOperation;
import ai.convo.contract.intent.SentenceRecord;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.intent.UpdateSentenceCommand;
import ai.convo.contract.locale.LocaleId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.axonframework.eventsourcing.AggregateDeletedException;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The write model of an intent and its sentences: given (past events) / when (command) / then (events or error). */
class IntentAggregateTest {

    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String PROJECT = "a00000000000000000000001";
    static final String OTHER_PROJECT = "a00000000000000000000002";
    static final String FLOW = "f00000000000000000000001";
    static final String OTHER_FLOW = "f00000000000000000000002";
    static final String STRANGE_FLOW = "f00000000000000000000003";
    static final String USER = "c00000000000000000000001";
    static final String EDITOR = "c00000000000000000000002";
    static final String INTENT = "e00000000000000000000001";
    static final String SIBLING = "e00000000000000000000002";
    static final String CHILD = "e00000000000000000000003";
    static final String GRANDCHILD = "e00000000000000000000004";
    static final String ELSEWHERE = "e00000000000000000000005";
    static final String UNKNOWN = "e0000000000000000000dead";
    static final String EN = "d00000000000000000000001";
    static final String DE = "d00000000000000000000002";
    static final String FOREIGN_LOCALE = "d00000000000000000000003";
    static final String S1 = "500000000000000000000001";
    static final String S2 = "500000000000000000000002";
    static final String REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor SAME_ORG_EDITOR = new Actor(EDITOR, ORG, Role.ORG_ADMIN);
    static final Actor STRANGER = new Actor(EDITOR, OTHER_ORG, Role.ORG_ADMIN);

    private FixtureConfiguration<IntentAggregate> fixture;
    private FakeIntentDirectory directory;

    @BeforeEach
    void setUp() {
        // The flow FLOW of PROJECT holds INTENT (the aggregate under test) and SIBLING; OTHER_FLOW holds ELSEWHERE.
        directory = new FakeIntentDirectory()
                .flow(FLOW, PROJECT, ORG)
                .flow(OTHER_FLOW, PROJECT, ORG)
                .flow(STRANGE_FLOW, OTHER_PROJECT, OTHER_ORG)
                .intent(INTENT, FLOW, "Order pizza", null)
                .intent(SIBLING, FLOW, "Cancel order", null)
                .intent(ELSEWHERE, OTHER_FLOW, "Elsewhere", null)
                .locale(EN, PROJECT)
                .locale(DE, PROJECT)
                .locale(FOREIGN_LOCALE, OTHER_PROJECT);
        fixture = new AggregateTestFixture<>(IntentAggregate.class);
        fixture.registerInjectableResource(directory);
    }

    // ---- history building blocks

    static IntentCreatedEvent created(String name, String parent) {
        return new IntentCreatedEvent(INTENT, FLOW, PROJECT, ORG, REF, name, "", List.of(), false, false, parent, "",
                List.of(), "", List.of(), Map.of(), ChildFeatures.NONE, null, USER, T0);
    }

    static IntentCreatedEvent created() {
        return created("Order pizza", null);
    }

    static IntentRecord record(String name, String parent, long lastChanged, String lastChangedBy) {
        return new IntentRecord(INTENT, REF, name, "", List.of(), false, false, parent, "", List.of(), "", List.of(),
                Map.of(), ChildFeatures.NONE, null, T0, lastChanged, USER, lastChangedBy);
    }

    static IntentUpdatedEvent updated(List<String> changed, String name, String parent) {
        return new IntentUpdatedEvent(INTENT, FLOW, PROJECT, ORG, changed, name, "", List.of(), false, false, parent, "",
                List.of(), "", List.of(), Map.of(), ChildFeatures.NONE, null, EDITOR, T1);
    }

    static SentenceCreatedEvent sentenceCreated(String id, String locale, String text) {
        return new SentenceCreatedEvent(id, INTENT, FLOW, PROJECT, ORG, locale, text, USER, T0);
    }

    static UpdateIntentCommand update(IntentPatch patch) {
        return new UpdateIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR, patch, null, T1);
    }

    static IntentPatch parent(String parent) {
        return IntentPatch.parent(parent == null ? null : IntentId.of(parent));
    }

    static CreateIntentCommand create(IntentContent content) {
        return new CreateIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), OWNER, REF, content, T0);
    }

    static CreateSentenceCommand createSentence(String id, String locale, String text) {
        return new CreateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(id), SAME_ORG_EDITOR, text,
                LocaleId.of(locale), T1);
    }

    /** A DomainException of exactly this kind whose message contains the fragment (and, if given, these details). */
    static Matcher<Object> domainError(DomainException.Kind kind, String fragment, Map<String, Object> details) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                return actual instanceof DomainException e && e.kind() == kind && e.getMessage() != null
                        && e.getMessage().contains(fragment) && (details == null || details.equals(e.details()));
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("DomainException " + kind + " containing '" + fragment + "'"
                        + (details == null ? "" : " with details " + details));
            }

            @Override
            public void describeMismatch(Object actual, Description description) {
                description.appendText(actual instanceof DomainException e
                        ? "was " + e.kind() + " '" + e.getMessage() + "' " + e.details() : "was " + actual);
            }
        };
    }

    static Matcher<Object> domainError(DomainException.Kind kind, String fragment) {
        return domainError(kind, fragment, null);
    }

    // ---- create

    @Nested
    @DisplayName("CreateIntentCommand")
    class Create {

        @Test
        void givenAFlow_whenCreatingAnIntentWithEveryField_thenIntentCreatedWithTheFlowsProjectAndOrganisation() {
            // given: the child childFeatures names is an intent of the flow
            directory.intents.remove(INTENT);
            directory.intent(CHILD, FLOW, "Child", null);
            IntentContent content = new IntentContent("Order pizza", "Orders food", List.of("food", "order"), true, true,
                    IntentId.of(SIBLING), "context.open", List.of("Do you want pizza?"), "Pizza or pasta?",
                    List.of("rule one"), Map.of("size", "large"), ChildFeatures.of(List.of(CHILD)), IntentBias.CHILDREN);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(content))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(new IntentCreatedEvent(INTENT, FLOW, PROJECT, ORG, REF, "Order pizza", "Orders food",
                            List.of("food", "order"), true, true, SIBLING, "context.open", List.of("Do you want pizza?"),
                            "Pizza or pasta?", List.of("rule one"), Map.of("size", "large"),
                            ChildFeatures.of(List.of(CHILD)), "children", USER, T0));
        }

        @Test
        void givenAFlow_whenCreatingAnIntentWithOnlyAName_thenEveryOtherFieldHasItsDefault() {
            // given
            directory.intents.remove(INTENT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("Order pizza")))
                    // then
                    .expectEvents(created());
        }

        @Test
        void givenAnIntentNamedCancelOrder_whenCreatingOneNamedCANCELORDER_thenConflictNamingTheExistingIntent() {
            // given
            directory.intents.remove(INTENT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("CANCEL ORDER")))
                    // then
                    .expectException(DomainException.class)
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "already has an intent named 'Cancel order' (" + SIBLING + ")",
                            Map.of("name", "CANCEL ORDER", "conflictsWith", SIBLING)))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntentOfAnotherFlow_whenCreatingOneWithItsName_thenAllowedBecauseNamesAreUniquePerFlow() {
            // given
            directory.intents.remove(INTENT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("Elsewhere")))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(created("Elsewhere", null));
        }

        @Test
        void givenNoSuchFlow_whenCreatingAnIntent_thenNotFound() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateIntentCommand(IntentId.of(INTENT), FlowId.of(UNKNOWN), OWNER, REF,
                            IntentContent.named("X"), T0))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + UNKNOWN + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAFlowOfAnotherOrganisation_whenCreatingAnIntentInIt_thenNotFoundAsIfItDidNotExist() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), STRANGER, REF,
                            IntentContent.named("X"), T0))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + FLOW + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntentOfTheFlow_whenCreatingAChildOfIt_thenTheParentIsRecorded() {
            // given
            directory.intents.remove(INTENT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("Order pizza").withParent(IntentId.of(SIBLING))))
                    // then
                    .expectEvents(created("Order pizza", SIBLING));
        }

        @Test
        void givenAnIntentOfAnotherFlow_whenCreatingAChildOfIt_thenInvalidNamingParentIntentId() {
            // given
            directory.intents.remove(INTENT);
            String detail = "parentIntentId " + ELSEWHERE + " is not an intent of flow " + FLOW + ".";
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("Order pizza").withParent(IntentId.of(ELSEWHERE))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, detail, Map.of("parentIntentId", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenNoSuchParent_whenCreatingAChildOfIt_thenInvalid() {
            // given
            directory.intents.remove(INTENT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("Order pizza").withParent(IntentId.of(UNKNOWN))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "is not an intent of flow"))
                    .expectNoEvents();
        }

        @Test
        void givenAFlow_whenCreatingAnIntentThatIsItsOwnParent_thenInvalid() {
            // given
            directory.intents.remove(INTENT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(IntentContent.named("Order pizza").withParent(IntentId.of(INTENT))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "An intent cannot be its own parent.",
                            Map.of("parentIntentId", "An intent cannot be its own parent.")))
                    .expectNoEvents();
        }
    }

    // ---- update

    @Nested
    @DisplayName("UpdateIntentCommand")
    class Update {

        @Test
        void givenAnIntent_whenPatchIsEmpty_thenNoEventsAndTheCurrentRecordIsReturned() {
            // given
            fixture.given(created())
                    // when
                    .when(update(IntentPatch.empty()))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(new IntentResult(record("Order pizza", null, T0, USER), PROJECT, Map.of()));
        }

        @Test
        void givenAnIntent_whenPatchRepeatsEveryCurrentValue_thenNoEvents() {
            // given
            fixture.given(created())
                    // when
                    .when(update(new IntentPatch("Order pizza", "", List.of(), false, false, true, null, "", List.of(), "",
                            List.of(), Map.of(), ChildFeatures.NONE, true, null)))
                    // then
                    .expectNoEvents();
        }

        @Test
        void givenAnIntent_whenRenamed_thenIntentUpdatedWithOnlyNameChangedAndTheNewRecordReturned() {
            // given
            fixture.given(created())
                    // when
                    .when(update(IntentPatch.name("Order a pizza")))
                    // then
                    .expectEvents(updated(List.of("name"), "Order a pizza", null))
                    .expectResultMessagePayload(new IntentResult(record("Order a pizza", null, T1, EDITOR), PROJECT,
                            Map.of()));
        }

        @Test
        void givenAnIntent_whenEveryFieldChanges_thenChangedFieldsListsEveryFieldAndTheEventCarriesTheFullState() {
            // given
            fixture.given(created())
                    // when
                    .when(update(new IntentPatch("Order food", "Any food", List.of("food"), true, true, true,
                            IntentId.of(SIBLING), "ok", List.of("Sure?"), "Which?", List.of("r"), Map.of("k", 1),
                            ChildFeatures.of(true), true, IntentBias.PARENTS)))
                    // then
                    .expectEvents(new IntentUpdatedEvent(INTENT, FLOW, PROJECT, ORG, List.of("name", "parentIntentId",
                            "description", "tags", "isRejectIntent", "isDisabled", "condition", "confirmationSentences",
                            "disambiguationSentence", "rules", "data", "childFeatures",
                            "biasTowardsParentOrChildIntents"), "Order food", "Any food", List.of("food"), true, true,
                            SIBLING, "ok", List.of("Sure?"), "Which?", List.of("r"), Map.of("k", 1),
                            ChildFeatures.of(true), "parents", EDITOR, T1));
        }

        @Test
        void givenTwoIntents_whenRenamingOneToTheOthersNameInAnotherCase_thenConflict() {
            // given
            fixture.given(created())
                    // when
                    .when(update(IntentPatch.name("cancel ORDER")))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "already has an intent named 'Cancel order' (" + SIBLING + ")"))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntent_whenRenamingItToItsOwnNameInAnotherCase_thenAllowed() {
            // given
            fixture.given(created())
                    // when
                    .when(update(IntentPatch.name("ORDER PIZZA")))
                    // then
                    .expectEvents(updated(List.of("name"), "ORDER PIZZA", null));
        }

        @Test
        void givenARootIntent_whenGivenAParentOfTheSameFlow_thenOnlyParentIntentIdChanged() {
            // given
            fixture.given(created())
                    // when
                    .when(update(parent(SIBLING)))
                    // then
                    .expectEvents(updated(List.of("parentIntentId"), "Order pizza", SIBLING));
        }

        @Test
        void givenAChildIntent_whenTheParentIsExplicitlyNull_thenItBecomesARoot() {
            // given
            directory.intent(INTENT, FLOW, "Order pizza", SIBLING);
            fixture.given(created("Order pizza", SIBLING))
                    // when
                    .when(update(parent(null)))
                    // then
                    .expectEvents(updated(List.of("parentIntentId"), "Order pizza", null))
                    .expectResultMessagePayload(new IntentResult(record("Order pizza", null, T1, EDITOR), PROJECT,
                            Map.of()));
        }

        @Test
        void givenAnIntent_whenItIsMadeItsOwnParent_thenInvalid() {
            // given
            fixture.given(created())
                    // when
                    .when(update(parent(INTENT)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "An intent cannot be its own parent.",
                            Map.of("parentIntentId", "An intent cannot be its own parent.")))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntent_whenTheParentIsAnIntentOfAnotherFlow_thenInvalid() {
            // given
            fixture.given(created())
                    // when
                    .when(update(parent(ELSEWHERE)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID,
                            "parentIntentId " + ELSEWHERE + " is not an intent of flow " + FLOW + "."))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntent_whenTheParentIsUnknown_thenInvalid() {
            // given
            fixture.given(created())
                    // when
                    .when(update(parent(UNKNOWN)))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "is not an intent of flow"))
                    .expectNoEvents();
        }

        @Test
        void givenChildIsAChildOfThisIntent_whenThisIntentIsMadeAChildOfIt_thenConflictNamingTheCycle() {
            // given: CHILD -> INTENT
            directory.intent(CHILD, FLOW, "Child", INTENT);
            fixture.given(created())
                    // when: INTENT -> CHILD
                    .when(update(parent(CHILD)))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "cycle",
                            Map.of("cycle", List.of(INTENT, CHILD, INTENT))))
                    .expectExceptionMessage(containsString(INTENT + " -> " + CHILD + " -> " + INTENT))
                    .expectNoEvents();
        }

        @Test
        void givenAGrandchild_whenThisIntentIsMadeAChildOfItsGrandchild_thenConflictNamingTheWholeCycle() {
            // given: GRANDCHILD -> CHILD -> INTENT
            directory.intent(CHILD, FLOW, "Child", INTENT).intent(GRANDCHILD, FLOW, "Grandchild", CHILD);
            fixture.given(created())
                    // when: INTENT -> GRANDCHILD
                    .when(update(parent(GRANDCHILD)))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "Parents would form a cycle",
                            Map.of("cycle", List.of(INTENT, GRANDCHILD, CHILD, INTENT))))
                    .expectNoEvents();
        }

        @Test
        void givenATreeBesideThisIntent_whenThisIntentJoinsItAsALeaf_thenAllowed() {
            // given: GRANDCHILD -> CHILD -> SIBLING
            directory.intent(CHILD, FLOW, "Child", SIBLING).intent(GRANDCHILD, FLOW, "Grandchild", CHILD);
            fixture.given(created())
                    // when
                    .when(update(parent(GRANDCHILD)))
                    // then
                    .expectEvents(updated(List.of("parentIntentId"), "Order pizza", GRANDCHILD));
        }

        @Test
        void givenABias_whenItIsExplicitlyNull_thenItIsCleared() {
            // given
            IntentCreatedEvent withBias = new IntentCreatedEvent(INTENT, FLOW, PROJECT, ORG, REF, "Order pizza", "",
                    List.of(), false, false, null, "", List.of(), "", List.of(), Map.of(), ChildFeatures.NONE, "parents",
                    USER, T0);
            fixture.given(withBias)
                    // when
                    .when(update(new IntentPatch(null, null, null, null, null, false, null, null, null, null, null, null,
                            null, true, null)))
                    // then
                    .expectEvents(updated(List.of("biasTowardsParentOrChildIntents"), "Order pizza", null));
        }

        @Test
        void givenAnIntent_whenTheLocaleIsOneOfTheProject_thenAccepted() {
            // given
            fixture.given(created())
                    // when
                    .when(new UpdateIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR,
                            IntentPatch.name("Pizza"), LocaleId.of(DE), T1))
                    // then
                    .expectEvents(updated(List.of("name"), "Pizza", null));
        }

        @Test
        void givenAnIntent_whenTheLocaleBelongsToAnotherProject_thenInvalidNamingLocaleId() {
            // given
            String detail = "localeId " + FOREIGN_LOCALE + " is not a locale of this flow's project (" + PROJECT + ").";
            fixture.given(created())
                    // when
                    .when(new UpdateIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR,
                            IntentPatch.name("Pizza"), LocaleId.of(FOREIGN_LOCALE), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, detail, Map.of("localeId", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenSentencesInTwoLocales_whenUpdating_thenTheResultCountsSentencesPerLocale() {
            // given
            fixture.given(created(), sentenceCreated(S1, EN, "one"), sentenceCreated(S2, EN, "two"),
                            sentenceCreated("500000000000000000000003", DE, "drei"),
                            new SentenceDeletedEvent(S2, INTENT, FLOW, PROJECT, ORG, EN, USER, T0))
                    // when
                    .when(update(IntentPatch.empty()))
                    // then
                    .expectResultMessagePayload(new IntentResult(record("Order pizza", null, T0, USER), PROJECT,
                            Map.of(EN, 1L, DE, 1L)));
        }

        @Test
        void givenADeletedIntent_whenUpdatingIt_thenTheAggregateIsGone() {
            // given
            fixture.given(created(), new IntentDeletedEvent(INTENT, FLOW, PROJECT, ORG, USER, T0))
                    // when
                    .when(update(IntentPatch.name("Back")))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }
    }

    // ---- visibility: another organisation, another flow in the path, a deleted flow

    static Stream<Arguments> commandsOnTheIntent() {
        return Stream.of(
                Arguments.of("update", (CommandFor) (flow, actor) -> new UpdateIntentCommand(IntentId.of(INTENT),
                        FlowId.of(flow), actor, IntentPatch.name("Stolen"), null, T1)),
                Arguments.of("delete", (CommandFor) (flow, actor) -> new DeleteIntentCommand(IntentId.of(INTENT),
                        FlowId.of(flow), actor, T1)),
                Arguments.of("create sentence", (CommandFor) (flow, actor) -> new CreateSentenceCommand(
                        IntentId.of(INTENT), FlowId.of(flow), SentenceId.of(S2), actor, "hi", LocaleId.of(EN), T1)),
                Arguments.of("update sentence", (CommandFor) (flow, actor) -> new UpdateSentenceCommand(
                        IntentId.of(INTENT), FlowId.of(flow), SentenceId.of(S1), actor, "changed", T1)),
                Arguments.of("delete sentence", (CommandFor) (flow, actor) -> new DeleteSentenceCommand(
                        IntentId.of(INTENT), FlowId.of(flow), SentenceId.of(S1), actor, T1)));
    }

    interface CommandFor {
        Object command(String flowId, Actor actor);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOnTheIntent")
    void givenAnIntent_whenAnActorOfAnotherOrganisationSendsACommand_thenNotFoundAsIfItDidNotExist(String name,
                                                                                                   CommandFor command) {
        // given
        fixture.given(created(), sentenceCreated(S1, EN, "hello"))
                // when
                .when(command.command(FLOW, STRANGER))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Intent " + INTENT + " does not exist."))
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOnTheIntent")
    void givenAnIntent_whenACommandNamesAnotherFlowInItsPath_thenNotFound(String name, CommandFor command) {
        // given
        fixture.given(created(), sentenceCreated(S1, EN, "hello"))
                // when
                .when(command.command(OTHER_FLOW, SAME_ORG_EDITOR))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Intent " + INTENT + " does not exist."))
                .expectNoEvents();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsOnTheIntent")
    void givenTheFlowWasDeleted_whenACommandReachesItsIntent_thenNotFound(String name, CommandFor command) {
        // given: the flow lookup no longer has the flow
        directory.flows.remove(FLOW);
        fixture.given(created(), sentenceCreated(S1, EN, "hello"))
                // when
                .when(command.command(FLOW, SAME_ORG_EDITOR))
                // then
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Flow " + FLOW + " does not exist."))
                .expectNoEvents();
    }

    // ---- delete and detach

    @Nested
    @DisplayName("DeleteIntentCommand and DetachIntentFromParentCommand")
    class Delete {

        @Test
        void givenAnIntentWithSentences_whenDeleted_thenIntentDeletedAndAggregateMarkedDeleted() {
            // given
            fixture.given(created(), sentenceCreated(S1, EN, "hello"))
                    // when
                    .when(new DeleteIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR, T1))
                    // then
                    .expectEvents(new IntentDeletedEvent(INTENT, FLOW, PROJECT, ORG, EDITOR, T1))
                    .expectMarkedDeleted();
        }

        @Test
        void givenADeletedIntent_whenDeletingItAgain_thenTheAggregateIsGone() {
            // given
            fixture.given(created(), new IntentDeletedEvent(INTENT, FLOW, PROJECT, ORG, USER, T0))
                    // when
                    .when(new DeleteIntentCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }

        @Test
        void givenAChildOfADeletedParent_whenDetached_thenItBecomesARootWithOnlyParentIntentIdChanged() {
            // given
            fixture.given(created("Order pizza", SIBLING))
                    // when
                    .when(new DetachIntentFromParentCommand(IntentId.of(INTENT), FlowId.of(FLOW), IntentId.of(SIBLING),
                            EDITOR, T1))
                    // then
                    .expectEvents(updated(List.of("parentIntentId"), "Order pizza", null));
        }

        @Test
        void givenAnIntentWithAnotherParent_whenDetachedFromADeletedOne_thenNothingChanges() {
            // given: the parent moved from SIBLING to CHILD meanwhile
            fixture.given(created("Order pizza", SIBLING), updated(List.of("parentIntentId"), "Order pizza", CHILD))
                    // when
                    .when(new DetachIntentFromParentCommand(IntentId.of(INTENT), FlowId.of(FLOW), IntentId.of(SIBLING),
                            EDITOR, T1))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents();
        }
    }

    // ---- sentences

    @Nested
    @DisplayName("Sentence commands")
    class Sentences {

        @Test
        void givenAnIntent_whenAddingASentenceInALocaleOfTheProject_thenSentenceCreatedAndItsRecordReturned() {
            // given
            fixture.given(created())
                    // when
                    .when(createSentence(S1, DE, "Ich will Pizza"))
                    // then
                    .expectEvents(new SentenceCreatedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, "Ich will Pizza", EDITOR, T1))
                    .expectResultMessagePayload(new SentenceRecord(S1, "Ich will Pizza", DE, T1, T1, EDITOR, EDITOR));
        }

        @Test
        void givenAnIntent_whenAddingASentenceInALocaleOfAnotherProject_thenInvalidNamingLocaleId() {
            // given
            String detail = "localeId " + FOREIGN_LOCALE + " is not a locale of this flow's project (" + PROJECT + ").";
            fixture.given(created())
                    // when
                    .when(createSentence(S1, FOREIGN_LOCALE, "hello"))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, detail, Map.of("localeId", detail)))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntent_whenAddingASentenceInAnUnknownLocale_thenInvalid() {
            // given
            fixture.given(created())
                    // when
                    .when(createSentence(S1, UNKNOWN, "hello"))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "is not a locale of this flow's project"))
                    .expectNoEvents();
        }

        @Test
        void givenASentence_whenAddingAnotherWithTheSameId_thenConflict() {
            // given
            fixture.given(created(), sentenceCreated(S1, EN, "hello"))
                    // when
                    .when(createSentence(S1, EN, "again"))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "A sentence with id " + S1 + " already exists."))
                    .expectNoEvents();
        }

        @Test
        void givenAnIntentWithTheMostSentences_whenAddingOneMore_thenConflict() {
            // given
            List<Object> history = new ArrayList<>(List.of(created()));
            for (int i = 0; i < IntentAggregate.MAX_SENTENCES; i++) {
                history.add(sentenceCreated(String.format("6%023d", i), EN, "sentence " + i));
            }
            fixture.given(history)
                    // when
                    .when(createSentence(S1, EN, "one too many"))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "the most an intent can hold"))
                    .expectNoEvents();
        }

        @Test
        void givenASentence_whenItsTextChanges_thenSentenceUpdatedKeepingItsLocale() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    // when
                    .when(new UpdateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, "Eine Pizza", T1))
                    // then
                    .expectEvents(new SentenceUpdatedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, List.of("text"),
                            "Eine Pizza", EDITOR, T1))
                    .expectResultMessagePayload(new SentenceRecord(S1, "Eine Pizza", DE, T0, T1, USER, EDITOR));
        }

        @Test
        void givenASentence_whenThePatchRepeatsItsTextOrIsEmpty_thenNoEvents() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    // when
                    .when(new UpdateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, "Pizza", T1))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new SentenceRecord(S1, "Pizza", DE, T0, T0, USER, USER));
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    .when(new UpdateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, null, T1))
                    .expectNoEvents();
        }

        @Test
        void givenASentence_whenThePatchNamesItsOwnLocale_thenUpdatedAsWithoutIt() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    // when: the official client's PATCH body carries the sentence's localeReference
                    .when(new UpdateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, "Eine Pizza", LocaleId.of(DE), T1))
                    // then
                    .expectEvents(new SentenceUpdatedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, List.of("text"),
                            "Eine Pizza", EDITOR, T1));
        }

        @Test
        void givenASentence_whenThePatchNamesAnotherLocale_thenInvalidAndNothingChanges() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    // when
                    .when(new UpdateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, "A pizza", LocaleId.of(EN), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "cannot move to another locale",
                            Map.of("localeReference", "localeReference " + EN + " is not the locale of sentence " + S1
                                    + " (" + DE + "); a sentence cannot move to another locale: create it in that "
                                    + "locale instead.")))
                    .expectNoEvents();
        }

        @Test
        void givenNoSuchSentence_whenUpdatingIt_thenNotFound() {
            // given
            fixture.given(created())
                    // when
                    .when(new UpdateSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, "x", T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND,
                            "Sentence " + S1 + " does not exist in intent " + INTENT + "."))
                    .expectNoEvents();
        }

        @Test
        void givenASentence_whenDeleted_thenSentenceDeletedNamingItsLocale() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    // when
                    .when(new DeleteSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, T1))
                    // then
                    .expectEvents(new SentenceDeletedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, EDITOR, T1))
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenADeletedSentence_whenDeletingItAgain_thenNotFound() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"),
                            new SentenceDeletedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, USER, T0))
                    // when
                    .when(new DeleteSentenceCommand(IntentId.of(INTENT), FlowId.of(FLOW), SentenceId.of(S1),
                            SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Sentence " + S1 + " does not exist"))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("BatchSentencesCommand")
    class BatchSentences {

        static final String S3 = "500000000000000000000003";

        BatchSentencesCommand batch(SentenceOperation... operations) {
            return new BatchSentencesCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR, List.of(operations), T1);
        }

        @Test
        void givenSentences_whenABatchCreatesUpdatesAndDeletes_thenTheirEventsInOrderAndTheIdsAnswered() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"), sentenceCreated(S2, EN, "Pasta"))
                    // when
                    .when(batch(new SentenceOperation(Op.CREATE, SentenceId.of(S3), "Salad", LocaleId.of(EN)),
                            new SentenceOperation(Op.UPDATE, SentenceId.of(S1), "Pizza bitte", LocaleId.of(DE)),
                            new SentenceOperation(Op.DELETE, SentenceId.of(S2), null, null)))
                    // then
                    .expectEvents(new SentenceCreatedEvent(S3, INTENT, FLOW, PROJECT, ORG, EN, "Salad", EDITOR, T1),
                            new SentenceUpdatedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, List.of("text"), "Pizza bitte",
                                    EDITOR, T1),
                            new SentenceDeletedEvent(S2, INTENT, FLOW, PROJECT, ORG, EN, EDITOR, T1))
                    .expectResultMessagePayload(new BatchResult(List.of(S3), List.of(S1), List.of(S2)));
        }

        @Test
        void givenABatchWhoseLaterOperationFails_whenSent_thenNoEventAtAllAndTheFailingOperationNamed() {
            // given
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    // when: the create is fine, the update names a sentence that does not exist
                    .when(batch(new SentenceOperation(Op.CREATE, SentenceId.of(S3), "Salad", LocaleId.of(EN)),
                            new SentenceOperation(Op.UPDATE, SentenceId.of(S2), "Nope", null)))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "operations[1] (update): Sentence " + S2
                            + " does not exist", Map.of("operation", 1, "op", "update")))
                    .expectNoEvents();
        }

        @Test
        void givenABatch_whenAnOperationDependsOnAnEarlierOne_thenItSeesIt() {
            // given
            fixture.given(created())
                    // when: created, then deleted in the same batch
                    .when(batch(new SentenceOperation(Op.CREATE, SentenceId.of(S3), "Salad", LocaleId.of(EN)),
                            new SentenceOperation(Op.DELETE, SentenceId.of(S3), null, null)))
                    // then
                    .expectEvents(new SentenceCreatedEvent(S3, INTENT, FLOW, PROJECT, ORG, EN, "Salad", EDITOR, T1),
                            new SentenceDeletedEvent(S3, INTENT, FLOW, PROJECT, ORG, EN, EDITOR, T1));
        }

        @Test
        void givenABatchOfAStranger_whenSent_thenNotFoundAndNothingStored() {
            // given
            fixture.given(created())
                    // when
                    .when(new BatchSentencesCommand(IntentId.of(INTENT), FlowId.of(FLOW), STRANGER,
                            List.of(new SentenceOperation(Op.CREATE, SentenceId.of(S3), "x", LocaleId.of(EN))), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Intent " + INTENT))
                    .expectNoEvents();
        }

        @Test
        void givenABatchCreatingInAForeignLocale_whenSent_thenInvalidNamingTheOperation() {
            // given
            fixture.given(created())
                    // when
                    .when(batch(new SentenceOperation(Op.CREATE, SentenceId.of(S3), "x", LocaleId.of(FOREIGN_LOCALE))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "operations[0] (create): "))
                    .expectNoEvents();
        }
    }

    @Nested
    @DisplayName("AddIntentLocalizationCommand and RemoveIntentLocalizationCommand")
    class Localizations {

        /** A sentence created in the locale with the text, under a new id. */
        static Matcher<Object> createdIn(String locale, String text) {
            return new org.hamcrest.TypeSafeMatcher<>() {
                @Override
                protected boolean matchesSafely(Object item) {
                    return item instanceof SentenceCreatedEvent e && e.localeId().equals(locale) && e.text().equals(text)
                            && e.intentId().equals(INTENT);
                }

                @Override
                public void describeTo(org.hamcrest.Description description) {
                    description.appendText("a sentence '" + text + "' created in " + locale);
                }
            };
        }

        AddIntentLocalizationCommand add(String locale, String from) {
            return new AddIntentLocalizationCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR,
                    LocaleId.of(locale), from == null ? null : LocaleId.of(from), T1);
        }

        @Test
        void givenSentencesInTwoLocales_whenLocalizedFromOneIntoTheOther_thenOnlyTheMissingTextsAreCopied() {
            // given: "Pizza" in both, "Pasta" only in DE
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"), sentenceCreated(S2, DE, "Pasta"),
                            sentenceCreated("500000000000000000000003", EN, "Pizza"))
                    // when
                    .when(add(EN, DE))
                    // then
                    .expectEventsMatching(org.axonframework.test.matchers.Matchers.payloadsMatching(
                            org.axonframework.test.matchers.Matchers.exactSequenceOf(createdIn(EN, "Pasta"),
                                    org.axonframework.test.matchers.Matchers.andNoMore())))
                    .expectResultMessagePayload(1);
        }

        @Test
        void givenNoLocaleToInheritFrom_whenLocalized_thenNothingToCopy() {
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"))
                    .when(add(EN, null))
                    .expectNoEvents()
                    .expectResultMessagePayload(0);
        }

        @Test
        void givenALocaleOfAnotherProjectOrTheSameLocaleTwice_whenLocalized_thenInvalid() {
            fixture.given(created()).when(add(FOREIGN_LOCALE, DE))
                    .expectException(domainError(DomainException.Kind.INVALID, "localeId")).expectNoEvents();
            fixture.given(created()).when(add(DE, DE))
                    .expectException(domainError(DomainException.Kind.INVALID, "must be another locale"))
                    .expectNoEvents();
        }

        @Test
        void givenSentencesInTwoLocales_whenOneLocalizationIsRemoved_thenItsSentencesAreDeleted() {
            fixture.given(created(), sentenceCreated(S1, DE, "Pizza"), sentenceCreated(S2, EN, "Pizza"))
                    .when(new RemoveIntentLocalizationCommand(IntentId.of(INTENT), FlowId.of(FLOW), SAME_ORG_EDITOR,
                            LocaleId.of(DE), T1))
                    .expectEvents(new SentenceDeletedEvent(S1, INTENT, FLOW, PROJECT, ORG, DE, EDITOR, T1))
                    .expectResultMessagePayload(1);
        }

        @Test
        void givenAStranger_whenLocalizing_thenNotFound() {
            fixture.given(created())
                    .when(new RemoveIntentLocalizationCommand(IntentId.of(INTENT), FlowId.of(FLOW), STRANGER,
                            LocaleId.of(DE), T1))
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Intent " + INTENT))
                    .expectNoEvents();
        }
    }
}
