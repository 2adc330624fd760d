package ai.convo.command.token;

import static ai.convo.command.token.DomainErrors.domainError;
import static org.hamcrest.Matchers.containsString;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.token.CreateTokenCommand;
import ai.convo.contract.token.DefaultTokens;
import ai.convo.contract.token.DeleteTokenCommand;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenId;
import ai.convo.contract.token.TokenPatch;
import ai.convo.contract.token.TokenRecord;
import ai.convo.contract.token.TokenType;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.contract.token.UpdateTokenCommand;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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

/** The write model of a Token, in given (past events) / when (command) / then (events or error). */
class TokenAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String OTHER_PROJECT = "a00000000000000000000002";
    static final String STRANGERS_PROJECT = "a00000000000000000000003";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String EDITOR = "c00000000000000000000002";
    static final String TOKEN = "e00000000000000000000001";
    static final String SIBLING = "e00000000000000000000002";
    static final String UNKNOWN = "e0000000000000000000dead";
    static final String REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;

    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor SAME_ORG_EDITOR = new Actor(EDITOR, ORG, Role.ORG_ADMIN);
    static final Actor STRANGER = new Actor(EDITOR, OTHER_ORG, Role.ORG_ADMIN);

    private FixtureConfiguration<TokenAggregate> fixture;
    private FakeProjects projects;
    private FakeLabels labels;

    /** The token labels of each project, in memory; keyed by project and lower-case label. */
    static final class FakeLabels implements TokenLabels {
        private final Map<String, String> holders = new HashMap<>();

        FakeLabels with(String projectId, String label, String tokenId) {
            holders.put(projectId + "|" + label.toLowerCase(Locale.ROOT), tokenId);
            return this;
        }

        @Override
        public Optional<String> holderOf(String projectId, String label) {
            return Optional.ofNullable(holders.get(projectId + "|" + label.toLowerCase(Locale.ROOT)));
        }
    }

    @BeforeEach
    void setUp() {
        projects = new FakeProjects().with(PROJECT, ORG).with(OTHER_PROJECT, ORG).with(STRANGERS_PROJECT, OTHER_ORG);
        // The label lookup as it stands after tokenCreated() and a sibling token "Farewell".
        labels = new FakeLabels().with(PROJECT, "Greeting", TOKEN).with(PROJECT, "Farewell", SIBLING);
        fixture = new AggregateTestFixture<>(TokenAggregate.class);
        fixture.registerInjectableResource(projects);
        fixture.registerInjectableResource(labels);
    }

    // ---- building blocks

    static TokenCreatedEvent tokenCreated() {
        return new TokenCreatedEvent(TOKEN, PROJECT, ORG, REF, "Greeting", "custom", "input.text", USER, T0);
    }

    static TokenRecord tokenRecord() {
        return new TokenRecord(TOKEN, "Greeting", "custom", "input.text", REF, T0, T0, USER, USER);
    }

    static CreateTokenCommand create(String tokenId, String label, TokenType type, String script) {
        return new CreateTokenCommand(TokenId.of(tokenId), ProjectId.of(PROJECT), OWNER, REF, label, type, script, T1);
    }

    static UpdateTokenCommand update(String tokenId, TokenPatch patch) {
        return new UpdateTokenCommand(TokenId.of(tokenId), ProjectId.of(PROJECT), SAME_ORG_EDITOR, patch, T1);
    }

    static DeleteTokenCommand delete(String tokenId) {
        return new DeleteTokenCommand(TokenId.of(tokenId), ProjectId.of(PROJECT), SAME_ORG_EDITOR, T1);
    }

    static TokenPatch label(String label) {
        return new TokenPatch(label, null, null);
    }

    static String defaultTokenId(String label) {
        return DefaultTokens.idFor(PROJECT, label);
    }

    // ---- create

    @Nested
    @DisplayName("CreateTokenCommand")
    class Create {

        @Test
        void givenAVisibleProject_whenCreatingAToken_thenTokenCreatedWithTheTypeAsItsWireCode() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(UNKNOWN, "Order number", TokenType.FLOW_OUTPUT, "context.orderNumber"))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(new TokenCreatedEvent(UNKNOWN, PROJECT, ORG, REF, "Order number", "flow-output",
                            "context.orderNumber", USER, T1))
                    .expectNotMarkedDeleted();
        }

        @Test
        void givenTheSameLabelInAnotherProject_whenCreatingAToken_thenItIsAllowed() {
            // given: "Greeting" exists in PROJECT only
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTokenCommand(TokenId.of(UNKNOWN), ProjectId.of(OTHER_PROJECT), OWNER, REF,
                            "Greeting", TokenType.CUSTOM, "x", T1))
                    // then
                    .expectEvents(new TokenCreatedEvent(UNKNOWN, OTHER_PROJECT, ORG, REF, "Greeting", "custom", "x",
                            USER, T1));
        }

        @Test
        void givenAnUnknownProject_whenCreatingAToken_thenNotFound() {
            // given
            projects.without(PROJECT);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(UNKNOWN, "Order number", TokenType.CUSTOM, "x"))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenAProjectOfAnotherOrganisation_whenCreatingAToken_thenNotFoundAsIfItDidNotExist() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(new CreateTokenCommand(TokenId.of(UNKNOWN), ProjectId.of(PROJECT), STRANGER, REF, "Mine",
                            TokenType.CUSTOM, "x", T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenALabelTakenInTheProject_whenCreatingATokenWithItInOtherCase_thenConflictNamingTheHolder() {
            // given: "Greeting" belongs to TOKEN
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(UNKNOWN, "gREETING", TokenType.CUSTOM, "x"))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "unique per project, ignoring case",
                            Map.of("label", "gREETING")))
                    .expectExceptionMessage(containsString(TOKEN))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @MethodSource("ai.convo.command.token.TokenAggregateTest#defaultLabels")
        void givenTheDefaultTokens_whenCreatingATokenWithADefaultLabelInAnyCase_thenConflict(String label) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(UNKNOWN, label, TokenType.CUSTOM, "x"))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "default tokens are built in"))
                    .expectNoEvents();
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("ai.convo.command.token.TokenAggregateTest#invalidCreates")
        void givenAVisibleProject_whenCreatingAnInvalidToken_thenInvalidNamingTheField(String field,
                                                                                       CreateTokenCommand command) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(command)
                    // then
                    .expectException(DomainErrors.invalidField(field))
                    .expectNoEvents();
        }
    }

    static Stream<String> defaultLabels() {
        return Stream.concat(DefaultTokens.DEFINITIONS.stream().map(DefaultTokens.Definition::label),
                Stream.of("first name", "E-MAIL", "input TEXT"));
    }

    static Stream<String> exactDefaultLabels() {
        return DefaultTokens.DEFINITIONS.stream().map(DefaultTokens.Definition::label);
    }

    static Stream<Arguments> invalidCreates() {
        return Stream.of(
                Arguments.of("label", create(UNKNOWN, " ", TokenType.CUSTOM, "x")),
                Arguments.of("label", create(UNKNOWN, "x".repeat(201), TokenType.CUSTOM, "x")),
                Arguments.of("label", create(UNKNOWN, null, TokenType.CUSTOM, "x")),
                Arguments.of("type", create(UNKNOWN, "Fine", null, "x")),
                Arguments.of("script", create(UNKNOWN, "Fine", TokenType.CUSTOM, "")),
                Arguments.of("script", create(UNKNOWN, "Fine", TokenType.CUSTOM, null)),
                Arguments.of("script", create(UNKNOWN, "Fine", TokenType.CUSTOM, "x".repeat(100_001))));
    }

    // ---- update

    @Nested
    @DisplayName("UpdateTokenCommand")
    class Update {

        @Test
        void givenAToken_whenRenamed_thenTokenUpdatedWithFullStateAndTheChangedField() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, label("Welcome")))
                    // then
                    .expectEvents(new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "Welcome", "custom",
                            "input.text", EDITOR, T1))
                    .expectResultMessagePayload(new TokenRecord(TOKEN, "Welcome", "custom", "input.text", REF, T0, T1,
                            USER, EDITOR));
        }

        @Test
        void givenAToken_whenTypeAndScriptChange_thenBothAreListedAsChanged() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, new TokenPatch(null, TokenType.ANSWER, "context.answer")))
                    // then
                    .expectEvents(new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("type", "script"), "Greeting",
                            "answer", "context.answer", EDITOR, T1))
                    .expectResultMessagePayload(new TokenRecord(TOKEN, "Greeting", "answer", "context.answer", REF, T0,
                            T1, USER, EDITOR));
        }

        @Test
        void givenAToken_whenThePatchRepeatsTheCurrentValues_thenNothingChanges() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, new TokenPatch("Greeting", TokenType.CUSTOM, "input.text")))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(tokenRecord());
        }

        @Test
        void givenAnUpdatedToken_whenAnEmptyPatchArrives_thenTheLatestStateIsAnswered() {
            // given
            fixture.given(tokenCreated(), new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("script"), "Greeting",
                            "custom", "profile.firstname", EDITOR, T1))
                    // when
                    .when(update(TOKEN, TokenPatch.empty()))
                    // then
                    .expectNoEvents()
                    .expectResultMessagePayload(new TokenRecord(TOKEN, "Greeting", "custom", "profile.firstname", REF,
                            T0, T1, USER, EDITOR));
        }

        @Test
        void givenAToken_whenRenamedToItsOwnLabelInOtherCase_thenAllowed() {
            // given: the lookup says TOKEN itself holds "greeting"
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, label("GREETING")))
                    // then
                    .expectEvents(new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "GREETING", "custom",
                            "input.text", EDITOR, T1));
        }

        @Test
        void givenTwoTokens_whenOneIsRenamedToTheOthersLabel_thenConflict() {
            // given: SIBLING holds "Farewell"
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, label("farewell")))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "unique per project, ignoring case"))
                    .expectExceptionMessage(containsString(SIBLING))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenRenamedToADefaultLabel_thenConflict() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, label("last name")))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "'Last Name' is the label of a default token"))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenTheScriptBecomesTooLong_thenInvalid() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, new TokenPatch(null, null, "x".repeat(100_001))))
                    // then
                    .expectException(domainError(DomainException.Kind.INVALID, "100000"))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenAddressedThroughAnotherProjectOfTheSameOrganisation_thenNotFound() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(new UpdateTokenCommand(TokenId.of(TOKEN), ProjectId.of(OTHER_PROJECT), SAME_ORG_EDITOR,
                            label("Welcome"), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Token " + TOKEN + " does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenAStrangerAddressesItThroughTheirOwnProject_thenNotFound() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(new UpdateTokenCommand(TokenId.of(TOKEN), ProjectId.of(STRANGERS_PROJECT), STRANGER,
                            label("Mine"), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Token " + TOKEN + " does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenAStrangerAddressesItThroughItsProject_thenNotFound() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(new UpdateTokenCommand(TokenId.of(TOKEN), ProjectId.of(PROJECT), STRANGER, label("Mine"), T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Project " + PROJECT + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenATokenWhoseProjectWasDeleted_whenUpdatingIt_thenNotFound() {
            // given
            projects.without(PROJECT);
            fixture.given(tokenCreated())
                    // when
                    .when(update(TOKEN, label("Welcome")))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenNoHistory_whenUpdatingAnUnknownToken_thenNotFound() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(update(UNKNOWN, label("Welcome")))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Token " + UNKNOWN + " does not exist"))
                    .expectNoEvents();
        }

        @ParameterizedTest
        @MethodSource("ai.convo.command.token.TokenAggregateTest#exactDefaultLabels")
        void givenADefaultTokenOfTheProject_whenUpdatingIt_thenConflictBecauseItIsBuiltIn(String label) {
            // given: default tokens have no history
            fixture.givenNoPriorActivity()
                    // when
                    .when(update(defaultTokenId(label), label("Renamed")))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "('" + label + "') is a default token; default tokens are built in"))
                    .expectNoEvents();
        }

        @Test
        void givenADefaultTokenOfAnotherProject_whenAddressedThroughThisProject_thenNotFound() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(update(DefaultTokens.idFor(OTHER_PROJECT, "First Name"), label("Renamed")))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenADeletedToken_whenUpdatingIt_thenTheAggregateIsGone() {
            // given
            fixture.given(tokenCreated(), new TokenDeletedEvent(TOKEN, PROJECT, ORG, USER, T0))
                    // when
                    .when(update(TOKEN, label("Welcome")))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }
    }

    // ---- delete

    @Nested
    @DisplayName("DeleteTokenCommand")
    class Delete {

        @Test
        void givenAToken_whenDeletingIt_thenTokenDeletedAndMarkedDeleted() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(delete(TOKEN))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectEvents(new TokenDeletedEvent(TOKEN, PROJECT, ORG, EDITOR, T1))
                    .expectMarkedDeleted();
        }

        @Test
        void givenADeletedToken_whenDeletingItAgain_thenTheAggregateIsGone() {
            // given
            fixture.given(tokenCreated(), new TokenDeletedEvent(TOKEN, PROJECT, ORG, USER, T0))
                    // when
                    .when(delete(TOKEN))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }

        @Test
        void givenNoHistory_whenDeletingAnUnknownToken_thenNotFound() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(delete(UNKNOWN))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Token " + UNKNOWN + " does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenADefaultToken_whenDeletingIt_thenConflictBecauseItIsBuiltIn() {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(delete(defaultTokenId("Input Text")))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT, "default tokens are built in"))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenDeletedThroughAnotherProject_thenNotFound() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(new DeleteTokenCommand(TokenId.of(TOKEN), ProjectId.of(OTHER_PROJECT), SAME_ORG_EDITOR, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Token " + TOKEN + " does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenAToken_whenAStrangerDeletesIt_thenNotFound() {
            // given
            fixture.given(tokenCreated())
                    // when
                    .when(new DeleteTokenCommand(TokenId.of(TOKEN), ProjectId.of(PROJECT), STRANGER, T1))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"))
                    .expectNoEvents();
        }

        @Test
        void givenATokenWhoseProjectWasDeleted_whenDeletingIt_thenNotFound() {
            // given
            projects.without(PROJECT);
            fixture.given(tokenCreated())
                    // when
                    .when(delete(TOKEN))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist"))
                    .expectNoEvents();
        }
    }
}
