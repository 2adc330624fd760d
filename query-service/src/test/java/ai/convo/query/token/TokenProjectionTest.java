package ai.convo.query.token;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.token.DefaultTokens;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import ai.convo.query.readmodel.Rebuilding;

/** The token projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class TokenProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String EDITOR = "000000000000000000000003";
    static final String PROJECT = "0000000000000000000000a1";
    static final String OTHER_PROJECT = "0000000000000000000000a2";
    static final String TOKEN = "0000000000000000000000f1";
    static final String OTHER_TOKEN = "0000000000000000000000f2";

    static BatchingJdbcTemplate jdbc;
    static TransactionTemplate transaction;
    TokenProjection tokens;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM token_view");
        tokens = new TokenProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            if (event instanceof ProjectCreatedEvent e) {
                tokens.on(e);
            } else if (event instanceof TokenCreatedEvent e) {
                tokens.on(e);
            } else if (event instanceof TokenUpdatedEvent e) {
                tokens.on(e);
            } else if (event instanceof TokenDeletedEvent e) {
                tokens.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                tokens.on(e);
            }
        }
    }

    private Map<String, Object> token(String id) {
        return jdbc.queryForMap("SELECT * FROM token_view WHERE id = ?", id);
    }

    private int count(String where, Object... args) {
        Integer n = jdbc.queryForObject("SELECT count(*) FROM token_view WHERE " + where, Integer.class, args);
        return n == null ? 0 : n;
    }

    private static final ProjectCreatedEvent CREATED = new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 100);
    private static final ProjectCreatedEvent OTHER_CREATED =
            new ProjectCreatedEvent(OTHER_PROJECT, ORG, "Q", "", USER, 100);
    private static final TokenCreatedEvent GREETING =
            new TokenCreatedEvent(TOKEN, PROJECT, ORG, "ref-1", "Greeting", "custom", "input.text", USER, 110);

    @Test
    void givenOneTransactionOfManyChanges_whenARebuildFoldsItsUpdates_thenTheRowsAreThoseOfEventByEvent() {
        // given: updates of two tokens interleaved, one deleted and created again in between, a project deleted
        TokenCreatedEvent farewell =
                new TokenCreatedEvent(OTHER_TOKEN, PROJECT, ORG, "ref-2", "Farewell", "custom", "x", USER, 120);
        Object[] events = {CREATED, OTHER_CREATED, GREETING, farewell,
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "A", "custom", "s1", EDITOR, 130),
                new TokenUpdatedEvent(OTHER_TOKEN, PROJECT, ORG, List.of("label"), "B", "custom", "s2", EDITOR, 131),
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "C", "answer", "s3", USER, 132),
                new TokenDeletedEvent(OTHER_TOKEN, PROJECT, ORG, USER, 133), farewell,
                new TokenUpdatedEvent(OTHER_TOKEN, PROJECT, ORG, List.of("label"), "D", "custom", "s4", EDITOR, 134),
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "E", "custom", "s5", EDITOR, 135),
                new TokenUpdatedEvent("0000000000000000000000f9", OTHER_PROJECT, ORG, List.of("label"), "F", "custom",
                        "s6", EDITOR, 136), new ProjectDeletedEvent(OTHER_PROJECT, ORG, USER, 137)};
        transaction.executeWithoutResult(tx -> given(events));
        List<Map<String, Object>> eventByEvent = jdbc.queryForList("SELECT * FROM token_view ORDER BY id");
        jdbc.update("DELETE FROM token_view");

        // when: the same events in one transaction of a rebuild
        Rebuilding.during(() -> transaction.executeWithoutResult(tx -> given(events)));

        // then
        assertThat(jdbc.queryForList("SELECT * FROM token_view ORDER BY id")).isEqualTo(eventByEvent);
        assertThat(token(TOKEN)).containsEntry("label", "E").containsEntry("last_changed", 135L);
        assertThat(token(OTHER_TOKEN)).containsEntry("label", "D");
    }

    @Test
    void givenCreationsAndUpdatesInEveryOrder_whenARebuildFoldsThem_thenTheRowsAreThoseOfEventByEvent() {
        // given: an update before its token's creation, a creation twice, a creation into a deleted project and into
        // a project created later in the same transaction, a change of a default token, a project created twice, and
        // text that a multi-row statement must carry unchanged
        String late = "0000000000000000000000f3";
        String orphan = "0000000000000000000000f4";
        String third = "0000000000000000000000a3";
        Object[] events = {CREATED,
                new TokenUpdatedEvent(late, PROJECT, ORG, List.of("label"), "too early", "custom", "s0", EDITOR, 101),
                GREETING,
                new TokenCreatedEvent(late, PROJECT, ORG, "ref-3", "Late", "custom", "a\tb\n'c'\\", USER, 111),
                GREETING,
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("script"), "Greeting", "custom", "{\"x\": [1, null]}",
                        EDITOR, 112),
                new TokenCreatedEvent(orphan, third, ORG, "ref-4", "Orphan", "custom", "x", USER, 113),
                new ProjectCreatedEvent(third, ORG, "R", "", USER, 114),
                new TokenCreatedEvent(orphan, third, ORG, "ref-4", "Ünïcode ✓", "custom", "", USER, 115),
                new TokenUpdatedEvent(DefaultTokens.idFor(third, "Context"), third, ORG, List.of("label"), "Mine",
                        "custom", "x", EDITOR, 116),
                CREATED,
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "Hello", "custom", "s2", USER, 117)};
        transaction.executeWithoutResult(tx -> given(events));
        List<Map<String, Object>> eventByEvent = jdbc.queryForList("SELECT * FROM token_view ORDER BY id");
        jdbc.update("DELETE FROM token_view");

        // when
        Rebuilding.during(() -> transaction.executeWithoutResult(tx -> given(events)));

        // then
        assertThat(jdbc.queryForList("SELECT * FROM token_view ORDER BY id")).isEqualTo(eventByEvent);
        assertThat(token(late)).containsEntry("label", "Late").containsEntry("last_changed", 111L);
        assertThat(token(TOKEN)).containsEntry("label", "Hello").containsEntry("script", "s2");
        assertThat(token(orphan)).containsEntry("label", "Ünïcode ✓").containsEntry("script", "");
        assertThat(count("NOT is_default")).isEqualTo(3);
    }

    @Test
    void givenATokenOfAnEarlierTransaction_whenARebuildFoldsItsCreationAgainAndAChange_thenTheChangeApplies() {
        // given: the token's creation applied in an earlier transaction
        Object[] earlier = {CREATED, GREETING};
        Object[] later = {GREETING,
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "Changed", "answer", "s9", EDITOR, 140)};
        transaction.executeWithoutResult(tx -> given(earlier));
        transaction.executeWithoutResult(tx -> given(later));
        List<Map<String, Object>> eventByEvent = jdbc.queryForList("SELECT * FROM token_view ORDER BY id");
        jdbc.update("DELETE FROM token_view");

        // when: a rebuild applies the same transactions
        Rebuilding.during(() -> transaction.executeWithoutResult(tx -> given(earlier)));
        Rebuilding.during(() -> transaction.executeWithoutResult(tx -> given(later)));

        // then
        assertThat(jdbc.queryForList("SELECT * FROM token_view ORDER BY id")).isEqualTo(eventByEvent);
        assertThat(token(TOKEN)).containsEntry("label", "Changed").containsEntry("created_at", 110L)
                .containsEntry("last_changed", 140L).containsEntry("last_changed_by", EDITOR);
    }

    @Test
    void givenANewProject_whenProjected_thenItHasTheDefaultTokensWithDerivedIdsAndTheProjectsMeta() {
        // given / when
        given(CREATED);
        // then
        assertThat(count("project_id = ? AND is_default", PROJECT)).isEqualTo(DefaultTokens.DEFINITIONS.size());
        String firstName = DefaultTokens.idFor(PROJECT, "First Name");
        assertThat(token(firstName)).containsEntry("label", "First Name").containsEntry("token_type", "profile")
                .containsEntry("script", "profile.firstname").containsEntry("is_default", true)
                .containsEntry("organisation_id", ORG).containsEntry("created_at", 100L)
                .containsEntry("created_by", USER).containsEntry("last_changed_by", USER)
                .containsEntry("reference_id", DefaultTokens.referenceIdFor(PROJECT, "First Name"));
    }

    @Test
    void givenAProject_whenReplayedTwice_thenTheDefaultTokensExistOnce() {
        // given / when
        given(CREATED, CREATED, OTHER_CREATED);
        // then
        assertThat(count("is_default")).isEqualTo(2 * DefaultTokens.DEFINITIONS.size());
    }

    @Test
    void givenACreatedToken_whenProjected_thenItIsACustomRow() {
        // given / when
        given(CREATED, GREETING, GREETING);
        // then
        assertThat(token(TOKEN)).containsEntry("label", "Greeting").containsEntry("token_type", "custom")
                .containsEntry("is_default", false).containsEntry("created_at", 110L)
                .containsEntry("last_changed", 110L).containsEntry("reference_id", "ref-1");
        assertThat(count("NOT is_default")).isEqualTo(1);
    }

    @Test
    void givenAToken_whenUpdated_thenTheNewStateAndWhoChangedItWhen() {
        // given / when
        given(CREATED, GREETING, new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label", "type"), "Welcome",
                "answer", "input.text", EDITOR, 150));
        // then
        assertThat(token(TOKEN)).containsEntry("label", "Welcome").containsEntry("token_type", "answer")
                .containsEntry("last_changed", 150L).containsEntry("last_changed_by", EDITOR)
                .containsEntry("created_at", 110L).containsEntry("created_by", USER);
    }

    @Test
    void givenAToken_whenDeleted_thenOnlyItsRowGoes() {
        // given / when
        given(CREATED, GREETING,
                new TokenCreatedEvent(OTHER_TOKEN, PROJECT, ORG, "ref-2", "Farewell", "custom", "x", USER, 120),
                new TokenDeletedEvent(TOKEN, PROJECT, ORG, USER, 130));
        // then
        assertThat(count("id = ?", TOKEN)).isZero();
        assertThat(count("id = ?", OTHER_TOKEN)).isEqualTo(1);
        assertThat(count("is_default")).isEqualTo(DefaultTokens.DEFINITIONS.size());
    }

    @Test
    void givenEventsAddressingADefaultTokensId_whenProjected_thenTheDefaultTokenIsUntouched() {
        // given
        String context = DefaultTokens.idFor(PROJECT, "Context");
        // when
        given(CREATED, new TokenUpdatedEvent(context, PROJECT, ORG, List.of("label"), "Mine", "custom", "x", EDITOR, 150),
                new TokenDeletedEvent(context, PROJECT, ORG, USER, 160));
        // then
        assertThat(token(context)).containsEntry("label", "Context").containsEntry("last_changed", 100L);
    }

    @Test
    void givenAProjectWithTokens_whenTheProjectIsDeleted_thenAllItsTokensGoDefaultOnesIncluded() {
        // given / when
        given(CREATED, OTHER_CREATED, GREETING,
                new TokenCreatedEvent(OTHER_TOKEN, OTHER_PROJECT, ORG, "ref-2", "Greeting", "custom", "x", USER, 120),
                new ProjectDeletedEvent(PROJECT, ORG, USER, 200));
        // then
        assertThat(count("project_id = ?", PROJECT)).isZero();
        assertThat(count("project_id = ?", OTHER_PROJECT)).isEqualTo(DefaultTokens.DEFINITIONS.size() + 1);
    }

    @Test
    void givenADeletedProject_whenATokenCreationCommitsAfterTheDeletion_thenNoOrphanRowAppears() {
        // given / when
        given(CREATED, new ProjectDeletedEvent(PROJECT, ORG, USER, 200), GREETING);
        // then
        assertThat(count("true")).isZero();
    }

    @Test
    void givenTheEventsOfAProject_whenSequenced_thenTheyShareTheProjectAsSequenceKey() {
        // given
        List<Object> ofProject = List.of(CREATED, GREETING,
                new TokenUpdatedEvent(TOKEN, PROJECT, ORG, List.of("label"), "W", "custom", "x", USER, 1),
                new TokenDeletedEvent(TOKEN, PROJECT, ORG, USER, 1), new ProjectDeletedEvent(PROJECT, ORG, USER, 1));
        // when / then
        for (Object payload : ofProject) {
            assertThat(TokenProcessing.BY_PROJECT.getSequenceIdentifierFor(
                    new GenericDomainEventMessage<>("Any", TOKEN, 0, payload))).isEqualTo(PROJECT);
        }
        // Anything else keeps Axon's per-aggregate order.
        assertThat(TokenProcessing.BY_PROJECT.getSequenceIdentifierFor(
                new GenericDomainEventMessage<>("Any", OTHER_TOKEN, 0, "something else"))).isEqualTo(OTHER_TOKEN);
    }
}
