package ai.convo.command.training;

import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.task.TaskFailedException;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentResetEvent;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoSentence;
import ai.convo.contract.yesno.YesNoSentenceCreatedEvent;
import ai.convo.contract.yesno.YesNoSentenceDeletedEvent;
import ai.convo.contract.yesno.YesNoSentenceUpdatedEvent;
import ai.convo.persistence.upcasting.StoredEvents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a locale's yes/no model trains on, read from the event log at one consistent point: the sentences of its
 * enabled yes, no and reject intents, labelled by intent id; an intent never written has the built-in sentences of
 * the locale's language, as its first write would store them.
 */
@Component
class YesNoTrainingSets {

    private static final String EVENTS = "SELECT aggregate_identifier, sequence_number, payload_type, "
            + "payload_revision, payload, global_index FROM domain_event_entry WHERE aggregate_identifier = ? "
            + "ORDER BY sequence_number";

    private final ProjectCapture capture;
    private final StoredEvents storedEvents;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate onePoint;

    YesNoTrainingSets(ProjectCapture capture, StoredEvents storedEvents, JdbcTemplate jdbc,
                      PlatformTransactionManager transactions) {
        this.capture = capture;
        this.storedEvents = storedEvents;
        this.jdbc = jdbc;
        this.onePoint = new TransactionTemplate(transactions);
        onePoint.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        onePoint.setReadOnly(true);
    }

    TrainingSets.AtPosition read(String projectId, String localeId) {
        return onePoint.execute(status -> {
            String language = capture.localesOf(projectId).nluLanguages().get(localeId);
            if (language == null) {
                throw new TaskFailedException("Locale " + localeId + " no longer exists; nothing was trained.");
            }
            List<TrainingSet.Example> examples = new ArrayList<>();
            long position = 0;
            for (YesNoKind kind : YesNoKind.values()) {
                YesNoIntentId id = YesNoIntentId.of(localeId, kind);
                Folded intent = new Folded(YesNoSeeds.sentences(id, kind, language));
                long[] newest = {0};
                jdbc.query(EVENTS, row -> {
                    newest[0] = Math.max(newest[0], row.getLong(6));
                    storedEvents.payloads(StoredEvents.row(null, row.getString(1), row.getLong(2), null, null,
                            row.getString(3), row.getString(4), row.getBytes(5), null)).forEach(intent::fold);
                }, id.value());
                position = Math.max(position, newest[0]);
                if (!intent.disabled) {
                    intent.sentences.values().forEach(text -> examples.add(new TrainingSet.Example(id.value(),
                            kind.wire(), text)));
                }
            }
            return new TrainingSets.AtPosition(new TrainingSet(language, examples), position);
        });
    }

    /** One yes/no intent as its events leave it. */
    private static final class Folded {

        final Map<String, String> sentences = new LinkedHashMap<>();
        boolean disabled;

        Folded(List<YesNoSentence> builtIn) {
            builtIn.forEach(s -> sentences.put(s.sentenceId(), s.text()));
        }

        void fold(Object event) {
            if (event instanceof YesNoIntentSeededEvent e) {
                replace(e.sentences());
            } else if (event instanceof YesNoIntentResetEvent e) {
                replace(e.sentences());
                disabled = false;
            } else if (event instanceof YesNoIntentUpdatedEvent e) {
                disabled = e.disabled();
            } else if (event instanceof YesNoSentenceCreatedEvent e) {
                sentences.put(e.sentenceId(), e.text());
            } else if (event instanceof YesNoSentenceUpdatedEvent e) {
                sentences.put(e.sentenceId(), e.text());
            } else if (event instanceof YesNoSentenceDeletedEvent e) {
                sentences.remove(e.sentenceId());
            }
        }

        private void replace(List<YesNoSentence> seeded) {
            sentences.clear();
            seeded.forEach(s -> sentences.put(s.sentenceId(), s.text()));
        }
    }
}
