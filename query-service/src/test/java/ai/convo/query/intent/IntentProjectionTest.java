package ai.convo.query.intent;

import ai.convo.query.ReadModelSchema;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.GenericTrackedEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/** The intent projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class IntentProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String PROJECT = "0000000000000000000000a1";
    static final String OTHER_PROJECT = "0000000000000000000000a2";
    static final String FLOW = "0000000000000000000000f1";
    static final String OTHER_FLOW = "0000000000000000000000f2";
    static final String PARENT = "0000000000000000000000b1";
    static final String CHILD = "0000000000000000000000b2";
    static final String ELSEWHERE = "0000000000000000000000b3";
    static final String EN = "0000000000000000000000e1";
    static final String DE = "0000000000000000000000d1";
    static final String S1 = "0000000000000000000000c1";
    static final String S2 = "0000000000000000000000c2";
    static final String S3 = "0000000000000000000000c3";

    static JdbcTemplate jdbc;
    static DriverManagerDataSource dataSource;
    IntentProjection projection;

    @BeforeAll
    static void database() {
        dataSource = ReadModelSchema.migrated();
        jdbc = new JdbcTemplate(dataSource);
    }

    @BeforeEach
    void empty() {
        for (String table : List.of("intent_sentence_count", "sentence_view", "intent_view", "intent_flow_view")) {
            jdbc.update("DELETE FROM " + table);
        }
        projection = new IntentProjection(jdbc);
    }

    private void given(Object... events) {
        for (Object event : events) {
            if (event instanceof FlowCreatedEvent e) {
                projection.on(e);
            } else if (event instanceof FlowDeletedEvent e) {
                projection.on(e);
            } else if (event instanceof ProjectDeletedEvent e) {
                projection.on(e);
            } else if (event instanceof IntentCreatedEvent e) {
                projection.on(e);
            } else if (event instanceof IntentUpdatedEvent e) {
                projection.on(e);
            } else if (event instanceof IntentDeletedEvent e) {
                projection.on(e);
            } else if (event instanceof SentenceCreatedEvent e) {
                projection.on(e);
            } else if (event instanceof SentenceUpdatedEvent e) {
                projection.on(e);
            } else if (event instanceof SentenceDeletedEvent e) {
                projection.on(e);
            } else {
                throw new IllegalArgumentException("no handler for " + event);
            }
        }
    }

    static FlowCreatedEvent flow(String flowId, String projectId) {
        return new FlowCreatedEvent(flowId, projectId, ORG, "ref", "Flow", "", USER, 100);
    }

    static IntentCreatedEvent intent(String id, String flowId, String projectId, String name, String parent) {
        return new IntentCreatedEvent(id, flowId, projectId, ORG, "ref-" + id, name, "Description", List.of("Food", "Order"),
                true, false, parent, "cond", List.of("Sure?"), "Which?", List.of("rule"), Map.of("k", "v"),
                ChildFeatures.of(List.of(CHILD)), "children", USER, 100);
    }

    static SentenceCreatedEvent sentence(String id, String intentId, String locale) {
        return new SentenceCreatedEvent(id, intentId, FLOW, PROJECT, ORG, locale, "text " + id, USER, 110);
    }

    private Map<String, Object> row(String id) {
        return jdbc.queryForMap("SELECT * FROM intent_view WHERE id = ?", id);
    }

    private Map<String, Integer> counts(String intentId) {
        Map<String, Integer> counts = new java.util.HashMap<>();
        jdbc.query("SELECT locale_id, sentence_count FROM intent_sentence_count WHERE intent_id = ?",
                rs -> {
                    counts.put(rs.getString(1), rs.getInt(2));
                }, intentId);
        return counts;
    }

    private int count(String table) {
        return jdbc.queryForObject("SELECT count(*) FROM " + table, Integer.class);
    }

    /** Each event handled at its global position (what dirty marks remember), as a processor does. */
    private void givenAtPositions(List<Object> events) {
        for (int i = 0; i < events.size(); i++) {
            Object event = events.get(i);
            DefaultUnitOfWork.startAndGet(new GenericTrackedEventMessage<>(new GlobalSequenceTrackingToken(i + 1),
                    GenericEventMessage.asEventMessage(event))).execute(() -> given(event));
        }
    }

    /** Counts, sentences and dirty marks (without their generation, a sequence value). */
    private List<Map<String, Object>> derivedRows() {
        List<Map<String, Object>> rows = new java.util.ArrayList<>();
        rows.addAll(jdbc.queryForList("SELECT intent_id, locale_id, flow_id, project_id, sentence_count "
                + "FROM intent_sentence_count ORDER BY intent_id, locale_id"));
        rows.addAll(jdbc.queryForList("SELECT id, intent_id, locale_id FROM sentence_view ORDER BY id"));
        rows.addAll(jdbc.queryForList("SELECT flow_id, locale_id, first_position FROM intent_feedback_dirty "
                + "ORDER BY flow_id, locale_id"));
        return rows;
    }

    @Test
    void givenCreatesReplaysAndDeletesMixedInOneBatch_thenCountsAndDirtyMarksAreThoseOfOneEventAtATime() {
        // given: an import-like run of events, with a replayed sentence, deletions between creations and a new locale
        String s4 = "0000000000000000000000c4";
        String s5 = "0000000000000000000000c5";
        String s6 = "0000000000000000000000c6";
        String fr = "0000000000000000000000d2";
        List<Object> events = List.of(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null),
                sentence(S1, PARENT, EN), sentence(S2, PARENT, EN), intent(CHILD, FLOW, PROJECT, "Child", null),
                sentence(S3, CHILD, DE), sentence(S1, PARENT, EN),
                new SentenceDeletedEvent(S2, PARENT, FLOW, PROJECT, ORG, EN, USER, 300), sentence(s4, PARENT, EN),
                intent(ELSEWHERE, FLOW, PROJECT, "Elsewhere", null), sentence(s5, ELSEWHERE, fr),
                new IntentDeletedEvent(CHILD, FLOW, PROJECT, ORG, USER, 500), sentence(s6, PARENT, DE));
        jdbc.update("DELETE FROM intent_feedback_dirty");
        givenAtPositions(events);
        List<Map<String, Object>> oneAtATime = derivedRows();
        for (String table : List.of("intent_feedback_dirty", "intent_sentence_count", "sentence_view", "intent_view",
                "intent_flow_view")) {
            jdbc.update("DELETE FROM " + table);
        }
        long generationBefore = jdbc.queryForObject("SELECT nextval('intent_feedback_generation')", Long.class);
        // when: the same events in one transaction, with the template that folds counts and marks until it commits
        projection = new IntentProjection(new BatchingJdbcTemplate(dataSource, 5_000));
        new TransactionTemplate(new DataSourceTransactionManager(dataSource))
                .executeWithoutResult(status -> givenAtPositions(events));
        // then: the same rows; every mark is a new generation
        assertThat(derivedRows()).isEqualTo(oneAtATime);
        assertThat(oneAtATime).contains(Map.of("flow_id", FLOW, "locale_id", EN, "first_position", 3L),
                Map.of("flow_id", FLOW, "locale_id", fr, "first_position", 11L));
        assertThat(counts(PARENT)).isEqualTo(Map.of(EN, 2, DE, 1));
        assertThat(jdbc.queryForList("SELECT generation FROM intent_feedback_dirty", Long.class))
                .allMatch(generation -> generation > generationBefore);
    }

    @Test
    void givenACreatedIntent_thenItsRowHoldsEveryFieldWithTheSortKeys() {
        // given
        given(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null), intent(CHILD, FLOW, PROJECT, "Child", PARENT));
        // then
        assertThat(row(PARENT)).containsEntry("flow_id", FLOW).containsEntry("project_id", PROJECT)
                .containsEntry("organisation_id", ORG).containsEntry("name", "Parent")
                .containsEntry("tags", "[\"Food\",\"Order\"]").containsEntry("tags_key", "food,order")
                .containsEntry("parent_intent_id", "").containsEntry("is_reject_intent", true)
                .containsEntry("data", "{\"k\":\"v\"}").containsEntry("child_features", "[\"" + CHILD + "\"]")
                .containsEntry("bias", "children").containsEntry("created_at", 100L).containsEntry("last_changed", 100L);
        assertThat(row(CHILD)).containsEntry("parent_intent_id", PARENT);
        assertThat(jdbc.queryForMap("SELECT * FROM intent_flow_view")).containsEntry("project_id", PROJECT);
    }

    @Test
    void givenAnUpdate_thenTheRowTakesTheFullNewStateAndWhoChangedItWhen() {
        // given
        given(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null), intent(CHILD, FLOW, PROJECT, "Child", PARENT),
                new IntentUpdatedEvent(CHILD, FLOW, PROJECT, ORG, List.of("name", "parentIntentId", "tags"), "Kid", "",
                        List.of(), false, true, null, "", List.of(), "", List.of(), Map.of(), ChildFeatures.of(true), null,
                        "000000000000000000000003", 200));
        // then
        assertThat(row(CHILD)).containsEntry("name", "Kid").containsEntry("parent_intent_id", "")
                .containsEntry("tags", "[]").containsEntry("tags_key", "").containsEntry("is_disabled", true)
                .containsEntry("child_features", "true").containsEntry("bias", null)
                .containsEntry("last_changed", 200L).containsEntry("last_changed_by", "000000000000000000000003")
                .containsEntry("created_at", 100L).containsEntry("created_by", USER);
    }

    @Test
    void givenSentences_thenTheyAreCountedPerIntentAndLocaleAndDeletionsCountDown() {
        // given
        given(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null),
                sentence(S1, PARENT, EN), sentence(S2, PARENT, EN), sentence(S3, PARENT, DE));
        // then
        assertThat(counts(PARENT)).isEqualTo(Map.of(EN, 2, DE, 1));
        // when
        given(new SentenceDeletedEvent(S3, PARENT, FLOW, PROJECT, ORG, DE, USER, 300),
                new SentenceDeletedEvent(S1, PARENT, FLOW, PROJECT, ORG, EN, USER, 300));
        // then: a locale without sentences has no count row
        assertThat(counts(PARENT)).isEqualTo(Map.of(EN, 1));
    }

    @Test
    void givenEventsAppliedTwice_thenRowsAndCountsAreAsIfAppliedOnce() {
        // given
        SentenceCreatedEvent s1 = sentence(S1, PARENT, EN);
        SentenceDeletedEvent deleted = new SentenceDeletedEvent(S2, PARENT, FLOW, PROJECT, ORG, EN, USER, 300);
        given(flow(FLOW, PROJECT), flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null),
                intent(PARENT, FLOW, PROJECT, "Parent", null), s1, s1, sentence(S2, PARENT, EN), deleted, deleted);
        // then
        assertThat(count("intent_flow_view")).isEqualTo(1);
        assertThat(count("intent_view")).isEqualTo(1);
        assertThat(count("sentence_view")).isEqualTo(1);
        assertThat(counts(PARENT)).isEqualTo(Map.of(EN, 1));
    }

    @Test
    void givenASentenceUpdate_thenItsTextAndMetaChangeButNotItsCount() {
        // given
        given(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null), sentence(S1, PARENT, EN),
                new SentenceUpdatedEvent(S1, PARENT, FLOW, PROJECT, ORG, EN, List.of("text"), "new", "000000000000000000000003",
                        400));
        // then
        assertThat(jdbc.queryForMap("SELECT * FROM sentence_view WHERE id = ?", S1)).containsEntry("text", "new")
                .containsEntry("last_changed", 400L).containsEntry("created_at", 110L)
                .containsEntry("last_changed_by", "000000000000000000000003");
        assertThat(counts(PARENT)).isEqualTo(Map.of(EN, 1));
    }

    @Test
    void givenADeletedIntent_thenItsSentencesAndCountsGoAndItsChildrenBecomeRoots() {
        // given
        given(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null), intent(CHILD, FLOW, PROJECT, "Child", PARENT),
                sentence(S1, PARENT, EN), sentence(S2, CHILD, EN),
                new IntentDeletedEvent(PARENT, FLOW, PROJECT, ORG, USER, 500));
        // then
        assertThat(jdbc.queryForList("SELECT id FROM intent_view", String.class)).containsExactly(CHILD);
        assertThat(row(CHILD)).containsEntry("parent_intent_id", "");
        assertThat(jdbc.queryForList("SELECT id FROM sentence_view", String.class)).containsExactly(S2);
        assertThat(counts(PARENT)).isEmpty();
        assertThat(counts(CHILD)).isEqualTo(Map.of(EN, 1));
    }

    @Test
    void givenADeletedFlow_thenItsIntentsSentencesAndCountsGoButOtherFlowsStay() {
        // given
        given(flow(FLOW, PROJECT), flow(OTHER_FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null),
                intent(ELSEWHERE, OTHER_FLOW, PROJECT, "Elsewhere", null), sentence(S1, PARENT, EN),
                new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, 600));
        // then
        assertThat(jdbc.queryForList("SELECT id FROM intent_view", String.class)).containsExactly(ELSEWHERE);
        assertThat(jdbc.queryForList("SELECT id FROM intent_flow_view", String.class)).containsExactly(OTHER_FLOW);
        assertThat(count("sentence_view")).isZero();
        assertThat(count("intent_sentence_count")).isZero();
    }

    @Test
    void givenADeletedProject_thenEverythingOfItGoesButOtherProjectsStay() {
        // given
        given(flow(FLOW, PROJECT), flow(OTHER_FLOW, OTHER_PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null),
                intent(ELSEWHERE, OTHER_FLOW, OTHER_PROJECT, "Elsewhere", null), sentence(S1, PARENT, EN),
                new ProjectDeletedEvent(PROJECT, ORG, USER, 700));
        // then
        assertThat(jdbc.queryForList("SELECT id FROM intent_view", String.class)).containsExactly(ELSEWHERE);
        assertThat(jdbc.queryForList("SELECT id FROM intent_flow_view", String.class)).containsExactly(OTHER_FLOW);
        assertThat(count("sentence_view")).isZero();
        assertThat(count("intent_sentence_count")).isZero();
    }

    @Test
    void givenEventsOfOneProject_thenTheyShareOneSequenceWhateverTheirAggregate() {
        // given / when / then
        List<Object> ofProject = List.of(flow(FLOW, PROJECT), intent(PARENT, FLOW, PROJECT, "Parent", null),
                sentence(S1, PARENT, EN), new IntentDeletedEvent(PARENT, FLOW, PROJECT, ORG, USER, 1),
                new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, 1), new ProjectDeletedEvent(PROJECT, ORG, USER, 1),
                new SentenceDeletedEvent(S1, PARENT, FLOW, PROJECT, ORG, EN, USER, 1),
                new SentenceUpdatedEvent(S1, PARENT, FLOW, PROJECT, ORG, EN, List.of("text"), "t", USER, 1),
                new IntentUpdatedEvent(PARENT, FLOW, PROJECT, ORG, List.of(), "n", "", List.of(), false, false, null, "",
                        List.of(), "", List.of(), Map.of(), ChildFeatures.NONE, null, USER, 1));
        for (Object event : ofProject) {
            assertThat(IntentProcessing.BY_PROJECT.getSequenceIdentifierFor(
                    new GenericDomainEventMessage<>("Any", "aggregate-" + event.hashCode(), 0, event))).isEqualTo(PROJECT);
        }
        // An event without a project keeps the per-aggregate default.
        LocaleCreatedEvent locale = new LocaleCreatedEvent(PROJECT, ORG, EN, "r", "en", "en-US", true, null, USER, 1);
        assertThat(IntentProcessing.BY_PROJECT.getSequenceIdentifierFor(
                new GenericDomainEventMessage<>("Any", "some-aggregate", 0, locale))).isEqualTo("some-aggregate");
    }
}
