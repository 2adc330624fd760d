package ai.convo.command.training;

import ai.convo.command.snapshot.ProjectCapture;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads what a flow trains on from the event log, at one consistent point (one REPEATABLE READ transaction, as
 * snapshot capture does): the flow's enabled intents, their sentences in the locale, the locale's nluLanguage, and
 * the position (the newest event of the flow's intents the set was folded from).
 */
@Component
class TrainingSets {

    /** A training set and the log position it was read at. */
    record AtPosition(TrainingSet set, long position) {
    }

    private final ProjectCapture capture;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate onePoint;

    TrainingSets(ProjectCapture capture, JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.capture = capture;
        this.jdbc = jdbc;
        this.onePoint = new TransactionTemplate(transactions);
        onePoint.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        onePoint.setReadOnly(true);
    }

    AtPosition read(String projectId, String flowId, String localeId) {
        return onePoint.execute(status -> {
            String language = capture.localesOf(projectId).nluLanguages().get(localeId);
            List<TrainingSet.Example> examples = new ArrayList<>();
            for (ProjectCapture.FlowIntent intent : capture.intentsOf(flowId)) {
                if (intent.content().disabled()) {
                    continue;
                }
                intent.sentences().stream().filter(s -> localeId.equals(s.localeId())).forEach(s ->
                        examples.add(new TrainingSet.Example(intent.id(), intent.content().name(), s.text())));
            }
            Long position = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry WHERE "
                    + "aggregate_identifier IN (SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ?)",
                    Long.class, flowId);
            return new AtPosition(new TrainingSet(language, examples), position == null ? 0 : position);
        });
    }
}
