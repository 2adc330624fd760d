package ai.convo.query.intent;

import ai.convo.query.ReadModelSchema;
import static ai.convo.query.intent.IntentProjectionTest.FLOW;
import static ai.convo.query.intent.IntentProjectionTest.ORG;
import static ai.convo.query.intent.IntentProjectionTest.PROJECT;
import static ai.convo.query.intent.IntentProjectionTest.USER;
import static ai.convo.query.intent.IntentProjectionTest.flow;
import static ai.convo.query.intent.IntentProjectionTest.intent;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.query.feedback.FeedbackAnalysis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The dirty marks of the projection and one refresh at a time: claim, compute, write, failure, concurrent change. */
@Tag("integration")
class IntentFeedbackRefresherTest {

    static final String EN = "0000000000000000000000e1";
    static final String A = "0000000000000000000000b1";
    static final String B = "0000000000000000000000b2";

    static JdbcTemplate jdbc;
    static DataSourceTransactionManager transactions;
    IntentProjection projection;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new JdbcTemplate(dataSource);
        transactions = new DataSourceTransactionManager(dataSource);
    }

    @BeforeEach
    void empty() {
        for (String table : List.of("intent_feedback", "intent_feedback_dirty", "intent_sentence_count", "sentence_view",
                "intent_view", "intent_flow_view")) {
            jdbc.update("DELETE FROM " + table);
        }
        projection = new IntentProjection(jdbc);
        projection.on(flow(FLOW, PROJECT));
        projection.on(intent(A, FLOW, PROJECT, "Flights", null));
        projection.on(intent(B, FLOW, PROJECT, "Weather", null));
    }

    private IntentFeedbackRefresher refresher(
            Function<List<FeedbackAnalysis.IntentSentences>, Map<String, FeedbackAnalysis.Report>> analysis) {
        return new IntentFeedbackRefresher(jdbc, transactions, Duration.ofMillis(200), Duration.ofMinutes(2), analysis);
    }

    private void sentence(String id, String intentId, String text) {
        projection.on(new SentenceCreatedEvent(id, intentId, FLOW, PROJECT, ORG, EN, text, USER, 110));
    }

    private List<String> dirty() {
        return jdbc.queryForList("SELECT flow_id || '/' || locale_id FROM intent_feedback_dirty", String.class);
    }

    private Map<String, Object> report(String intentId) {
        return IntentFeedbackReads.parse(jdbc.queryForObject(
                "SELECT report FROM intent_feedback WHERE intent_id = ? AND locale_id = ?", String.class, intentId, EN));
    }

    @Test
    void givenASentence_whenRefreshed_thenThePairIsCleanAndEveryIntentOfTheFlowHasItsReport() {
        // given
        sentence("0000000000000000000000c1", A, "book flight");
        assertThat(dirty()).containsExactly(FLOW + "/" + EN);
        // when
        IntentFeedbackRefresher.Outcome outcome = refresher(FeedbackAnalysis::analyse).refreshOne();
        // then: B has no sentence in en but is analysed with the flow (fewSentences, no fScore finding)
        assertThat(outcome).isEqualTo(IntentFeedbackRefresher.Outcome.WRITTEN);
        assertThat(dirty()).isEmpty();
        assertThat(report(B)).isEqualTo(Map.of("findings", List.of(Map.of("type", "fewSentences")),
                "info", Map.of("fScore", 0.0)));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM intent_feedback", Integer.class)).isEqualTo(2);
        assertThat(refresher(FeedbackAnalysis::analyse).refreshOne()).isEqualTo(IntentFeedbackRefresher.Outcome.NOTHING_DIRTY);
    }

    @Test
    void givenAFailingAnalysis_whenRefreshed_thenThePairStaysDirtyWithoutReportsAndIsRetriedLater() {
        // given
        sentence("0000000000000000000000c1", A, "book flight");
        // when
        IntentFeedbackRefresher.Outcome outcome = refresher(input -> {
            throw new IllegalStateException("analysis broke");
        }).refreshOne();
        // then
        assertThat(outcome).isEqualTo(IntentFeedbackRefresher.Outcome.FAILED);
        assertThat(dirty()).containsExactly(FLOW + "/" + EN);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM intent_feedback", Integer.class)).isZero();
        // and: not claimed again before the retry delay; afterwards a working refresher computes it
        assertThat(refresher(FeedbackAnalysis::analyse).refreshOne()).isEqualTo(IntentFeedbackRefresher.Outcome.NOTHING_DIRTY);
        jdbc.update("UPDATE intent_feedback_dirty SET claimed_until = now() - interval '1 second'");
        assertThat(refresher(FeedbackAnalysis::analyse).refreshOne()).isEqualTo(IntentFeedbackRefresher.Outcome.WRITTEN);
        assertThat(dirty()).isEmpty();
    }

    @Test
    void givenTheInputChangesWhileComputing_whenWriting_thenTheResultIsDiscardedAndTheNextRefreshSeesTheChange() {
        // given
        sentence("0000000000000000000000c1", A, "book flight");
        IntentFeedbackRefresher racing = refresher(input -> {
            sentence("0000000000000000000000c2", B, "book flight"); // committed while the analysis runs
            return FeedbackAnalysis.analyse(input);
        });
        // when
        IntentFeedbackRefresher.Outcome outcome = racing.refreshOne();
        // then
        assertThat(outcome).isEqualTo(IntentFeedbackRefresher.Outcome.DISCARDED);
        assertThat(dirty()).containsExactly(FLOW + "/" + EN);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM intent_feedback", Integer.class)).isZero();
        // and: the next refresh (lease freed) reads the new sentence: A and B share an identical sentence
        assertThat(refresher(FeedbackAnalysis::analyse).refreshOne()).isEqualTo(IntentFeedbackRefresher.Outcome.WRITTEN);
        assertThat(report(A).get("findings").toString()).contains("strongOverlap", B, "Weather");
    }

    @Test
    void givenAClaimedPair_whenAnotherReplicaLooks_thenItSkipsIt() {
        // given
        sentence("0000000000000000000000c1", A, "book flight");
        IntentFeedbackRefresher first = refresher(FeedbackAnalysis::analyse);
        // when
        IntentFeedbackRefresher.Claim claim = first.claim();
        // then
        assertThat(claim).isNotNull();
        assertThat(refresher(FeedbackAnalysis::analyse).claim()).isNull();
    }

    @Test
    void givenIntentChanges_thenTheFlowsLocalesWithSentencesAreMarkedAndADeletedFlowTakesItsReports() {
        // given: a computed report
        sentence("0000000000000000000000c1", A, "book flight");
        refresher(FeedbackAnalysis::analyse).refreshOne();
        // when: a new intent (no sentence yet) is created
        projection.on(intent("0000000000000000000000b3", FLOW, PROJECT, "Hotels", null));
        // then
        assertThat(dirty()).containsExactly(FLOW + "/" + EN);
        refresher(FeedbackAnalysis::analyse).refreshOne();
        assertThat(dirty()).isEmpty();
        // when: the flow is deleted
        projection.on(new FlowDeletedEvent(FLOW, PROJECT, ORG, USER, 200));
        // then
        assertThat(jdbc.queryForObject("SELECT count(*) FROM intent_feedback", Integer.class)).isZero();
        assertThat(dirty()).isEmpty();
    }
}
