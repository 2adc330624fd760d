package ai.convo.command.intent;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.snapshot.ProjectCapture.FlowIntent;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.intent.IntentCreatedEvent;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The exportIntents task: the flow's intents with their example sentences in one locale, read at one consistent
 * point from the event log, written as an {@link IntentFile} and kept for a day for GET .../intents/export/{taskId}.
 */
@Component
class ExportIntentsWork implements TaskWork {

    static final String TYPE = "exportIntents";
    static final long KEEP_SECONDS = 24 * 60 * 60;

    private final ProjectCapture capture;
    private final FlowLookup flows;
    private final JdbcTemplate jdbc;

    ExportIntentsWork(ProjectCapture capture, FlowLookup flows, JdbcTemplate jdbc) {
        this.capture = capture;
        this.flows = flows;
        this.jdbc = jdbc;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String flowId = String.valueOf(context.parameters().get("flowId"));
        String localeId = String.valueOf(context.parameters().get("localeId"));
        String format = String.valueOf(context.parameters().get("format"));
        context.totalSteps(1);
        FlowLookup.Flow flow;
        try {
            flow = flows.requireVisible(flowId, context.actor());
        } catch (DomainException gone) {
            throw new TaskFailedException("Flow " + flowId + " no longer exists; nothing was exported.");
        }
        List<FlowIntent> intents = capture.intentsOf(flowId);
        byte[] file = IntentFile.write(format, entries(intents, localeId));
        long now = Clock.nowSeconds();
        jdbc.update("DELETE FROM cmd_intent_export WHERE made_at < ?", now - KEEP_SECONDS);
        jdbc.update("INSERT INTO cmd_intent_export (task_id, flow_id, organisation_id, format, content, made_at) "
                + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (task_id) DO UPDATE SET content = EXCLUDED.content, "
                + "made_at = EXCLUDED.made_at", context.taskId().value(), flowId, flow.organisationId(), format, file, now);
        context.stepDone(1);
    }

    /** The intents as file entries, sorted by name; links by name; the sentences of {@code localeId}. */
    static List<IntentFile.Entry> entries(List<FlowIntent> intents, String localeId) {
        Map<String, String> names = new HashMap<>();
        intents.forEach(i -> names.put(i.id(), i.content().name()));
        return intents.stream().map(i -> {
            IntentCreatedEvent e = i.content();
            Object childFeatures = e.childFeatures() == null ? false : e.childFeatures().all() != null
                    ? e.childFeatures().all()
                    : e.childFeatures().intentIds().stream().map(names::get).filter(Objects::nonNull).toList();
            List<String> sentences = i.sentences().stream().filter(s -> s.localeId().equals(localeId))
                    .map(ProjectCapture.FlowSentence::text).toList();
            return new IntentFile.Entry(e.name(), e.description(), e.tags(), e.rejectIntent(), e.disabled(), true,
                    e.parentIntentId() == null ? null : names.get(e.parentIntentId()), e.condition(),
                    e.confirmationSentences(), e.disambiguationSentence(), e.rules(), e.data(), childFeatures, true,
                    e.biasTowardsParentOrChildIntents(), sentences);
        }).sorted(Comparator.comparing(IntentFile.Entry::name)).toList();
    }
}
