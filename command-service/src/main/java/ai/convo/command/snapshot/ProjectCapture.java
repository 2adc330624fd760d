package ai.convo.command.snapshot;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowIntentsTrainedEvent;
import ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
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
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerSettings;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.persistence.upcasting.StoredEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Reads a project as it stands from the event log: the events of the project aggregate (locales) and of every
 * live token, function, flow (with its states), slot filler and intent (with its sentences) that the write-side lookups list
 * for the project, folded in order, then those of its locales' yes/no intents. Run it inside one REPEATABLE READ transaction: the lookups and the events are
 * then read from one database snapshot, i.e. exactly the transactions committed before it, one consistent point.
 */
@Component
public class ProjectCapture {

    /** An intent of a flow as it stands (its fields as a creation would carry them), sentences in creation order. */
    public record FlowIntent(String id, IntentCreatedEvent content, List<FlowSentence> sentences) {
    }

    public record FlowSentence(String id, String localeId, String text) {
    }

    /** A flow as it stands (for a copy): its intents as {@link #intentsOf} has them, its states, the project's locales. */
    public record FlowAsItStands(String name, String description, List<FlowIntent> intents, List<FlowState> states,
                                 Set<String> localeIds) {
    }

    public record FlowState(String name, String type, boolean isDefault, List<String> intentIds) {
    }

    /** The project as found, with ids (for a restore's plan) and how each aggregate's stream continues. */
    static final class Captured {
        String organisationId;
        final Map<String, Locale> locales = new LinkedHashMap<>();
        String primaryLocaleId;
        final Map<String, SnapshotContent.Token> tokens = new LinkedHashMap<>();
        final Map<String, SnapshotContent.Function> functions = new LinkedHashMap<>();
        final Map<String, Flow> flows = new LinkedHashMap<>();
        final Map<String, Intent> intents = new LinkedHashMap<>();
        /** The yes/no intents of the project's locales that were ever written, by yesNoIntentId. */
        final Map<String, YesNo> yesNo = new LinkedHashMap<>();
        /** The last sequence number of every aggregate read (project, tokens, functions, flows, intents). */
        final Map<String, Long> lastSequence = new HashMap<>();
    }

    static final class Locale {
        final String id;
        final String referenceId;
        String name;
        String nluLanguage;
        boolean primary;
        String fallbackId;

        Locale(String id, String referenceId) {
            this.id = id;
            this.referenceId = referenceId;
        }
    }

    static final class Flow {
        final String id;
        final String referenceId;
        String name;
        String description;
        final Map<String, State> states = new LinkedHashMap<>();
        final Map<String, SnapshotContent.SlotFiller> slotFillers = new LinkedHashMap<>();
        /** The last training per localeId (localeReference holds the locale's id here). */
        final Map<String, SnapshotContent.Trained> trained = new LinkedHashMap<>();

        Flow(String id, String referenceId) {
            this.id = id;
            this.referenceId = referenceId;
        }
    }

    record State(String referenceId, String name, String type, boolean isDefault, List<String> intentIds) {
    }

    static final class Intent {
        final String id;
        final String flowId;
        final String referenceId;
        IntentCreatedEvent content;
        final Map<String, SnapshotContent.Sentence> sentences = new LinkedHashMap<>();

        Intent(String id, String flowId, String referenceId) {
            this.id = id;
            this.flowId = flowId;
            this.referenceId = referenceId;
        }
    }

    static final class YesNo {
        final String id;
        final String localeId;
        final String kind;
        List<String> rules = List.of();
        boolean disabled;
        final Map<String, String> sentences = new LinkedHashMap<>();

        YesNo(String id, String localeId, String kind) {
            this.id = id;
            this.localeId = localeId;
            this.kind = kind;
        }
    }

    private static final String EVENTS = "SELECT aggregate_identifier, sequence_number, payload_type, payload_revision, "
            + "payload FROM domain_event_entry WHERE aggregate_identifier IN ("
            + "SELECT ?::varchar UNION ALL SELECT token_id FROM cmd_token_lookup WHERE project_id = ? "
            + "UNION ALL SELECT function_id FROM cmd_snapshot_function WHERE project_id = ? "
            + "UNION ALL SELECT flow_id FROM cmd_flow_lookup WHERE project_id = ? "
            + "UNION ALL SELECT intent_id FROM cmd_intent_lookup WHERE project_id = ? "
            + "UNION ALL SELECT slot_filler_id FROM cmd_slot_filler_lookup WHERE project_id = ?) ORDER BY global_index";

    private final JdbcTemplate jdbc;
    private final StoredEvents storedEvents;
    /** One REPEATABLE READ, read-only transaction: every read in it sees the same committed state. */
    private final org.springframework.transaction.support.TransactionTemplate onePoint;

    ProjectCapture(JdbcTemplate jdbc, StoredEvents storedEvents,
                   org.springframework.transaction.PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.storedEvents = storedEvents;
        this.onePoint = new org.springframework.transaction.support.TransactionTemplate(transactions);
        onePoint.setIsolationLevel(org.springframework.transaction.TransactionDefinition.ISOLATION_REPEATABLE_READ);
        onePoint.setReadOnly(true);
    }

    /** {@link #capture}, in a transaction of its own at one consistent point. */
    Captured captureAtOnePoint(String projectId) {
        return onePoint.execute(status -> capture(projectId));
    }

    /** A row's events in today's shape (through the upcaster chain, as the event store reads them). */
    private List<Object> events(java.sql.ResultSet row) throws java.sql.SQLException {
        return storedEvents.payloads(StoredEvents.row(null, row.getString(1), row.getLong(2), null, null,
                row.getString(3), row.getString(4), row.getBytes(5), null));
    }

    private static final String FLOW_INTENT_EVENTS = "SELECT aggregate_identifier, sequence_number, payload_type, "
            + "payload_revision, payload FROM domain_event_entry WHERE aggregate_identifier IN ("
            + "SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ?) ORDER BY global_index";

    /** The live intents of a flow, in creation order, at one consistent point (a transaction of its own). */
    public List<FlowIntent> intentsOf(String flowId) {
        Captured captured = new Captured();
        onePoint.executeWithoutResult(status -> jdbc.query(FLOW_INTENT_EVENTS, row -> {
            events(row).forEach(event -> fold(captured, event));
        }, flowId));
        return captured.intents.values().stream().map(ProjectCapture::flowIntent).toList();
    }

    /** The flow of the project as it stands, at one consistent point (a transaction of its own); empty without it. */
    public Optional<FlowAsItStands> flowOf(String projectId, String flowId) {
        Captured project = captureAtOnePoint(projectId);
        Flow flow = project == null ? null : project.flows.get(flowId);
        if (flow == null) {
            return Optional.empty();
        }
        List<FlowIntent> intents = project.intents.values().stream().filter(i -> i.flowId.equals(flowId))
                .map(ProjectCapture::flowIntent).toList();
        List<FlowState> states = flow.states.values().stream()
                .map(state -> new FlowState(state.name(), state.type(), state.isDefault(), state.intentIds())).toList();
        return Optional.of(new FlowAsItStands(flow.name, flow.description, intents, states,
                Set.copyOf(project.locales.keySet())));
    }

    private static FlowIntent flowIntent(Intent i) {
        return new FlowIntent(i.id, i.content, i.sentences.entrySet().stream().map(s -> new FlowSentence(s.getKey(),
                s.getValue().localeReference(), s.getValue().text())).toList());
    }

    /** A project's locales: the primary one's id and every locale's nluLanguage (wire code) by id. */
    public record ProjectLocales(String primaryLocaleId, Map<String, String> nluLanguages) {
    }

    private static final String PROJECT_EVENTS = "SELECT aggregate_identifier, sequence_number, payload_type, "
            + "payload_revision, payload FROM domain_event_entry WHERE aggregate_identifier = ? ORDER BY sequence_number";

    /** The project's locales as its own events say (joins the caller's transaction, if any). */
    public ProjectLocales localesOf(String projectId) {
        Captured captured = new Captured();
        onePoint.executeWithoutResult(status -> jdbc.query(PROJECT_EVENTS, row -> {
            events(row).forEach(event -> fold(captured, event));
        }, projectId));
        Map<String, String> languages = new LinkedHashMap<>();
        captured.locales.values().forEach(l -> languages.put(l.id, l.nluLanguage));
        return new ProjectLocales(captured.primaryLocaleId, languages);
    }

    /** The project's resources; call inside a transaction (REPEATABLE READ for a consistent point). */
    Captured capture(String projectId) {
        Captured captured = new Captured();
        JdbcTemplate streaming = new JdbcTemplate(Objects.requireNonNull(jdbc.getDataSource()));
        streaming.setFetchSize(2000);
        streaming.query(EVENTS, row -> {
            String aggregate = row.getString(1);
            captured.lastSequence.put(aggregate, row.getLong(2));
            events(row).forEach(event -> fold(captured, event));
        }, projectId, projectId, projectId, projectId, projectId, projectId);
        // a locale's yes/no intents have ids derived from it, and no lookup: read after the locales are known
        List<String> yesNoIds = new ArrayList<>();
        captured.locales.keySet().forEach(localeId -> Arrays.stream(YesNoKind.values())
                .forEach(kind -> yesNoIds.add(YesNoIntentId.of(localeId, kind).value())));
        if (!yesNoIds.isEmpty()) {
            streaming.query("SELECT aggregate_identifier, sequence_number, payload_type, payload_revision, payload "
                    + "FROM domain_event_entry WHERE aggregate_identifier IN (" + String.join(",",
                    java.util.Collections.nCopies(yesNoIds.size(), "?")) + ") ORDER BY global_index", row -> {
                captured.lastSequence.put(row.getString(1), row.getLong(2));
                events(row).forEach(event -> fold(captured, event));
            }, yesNoIds.toArray());
        }
        return captured;
    }

    static void fold(Captured c, Object event) {
        if (event instanceof ProjectCreatedEvent e) {
            c.organisationId = e.organisationId();
        } else if (event instanceof LocaleCreatedEvent e) {
            Locale locale = new Locale(e.localeId(), e.referenceId());
            locale.name = e.name();
            locale.nluLanguage = e.nluLanguage();
            locale.primary = e.primary();
            locale.fallbackId = e.fallbackLocaleReference();
            c.locales.put(e.localeId(), locale);
            if (e.primary() && c.primaryLocaleId == null) {
                c.primaryLocaleId = e.localeId();
            }
        } else if (event instanceof LocaleUpdatedEvent e) {
            Locale locale = c.locales.get(e.localeId());
            locale.name = e.name();
            locale.nluLanguage = e.nluLanguage();
            locale.primary = e.primary();
            locale.fallbackId = e.fallbackLocaleReference();
        } else if (event instanceof PrimaryLocaleChangedEvent e) {
            Locale previous = e.previousPrimaryLocaleId() == null ? null : c.locales.get(e.previousPrimaryLocaleId());
            if (previous != null && !previous.id.equals(e.primaryLocaleId())) {
                previous.primary = false;
            }
            c.primaryLocaleId = e.primaryLocaleId();
        } else if (event instanceof LocaleDeletedEvent e) {
            c.locales.remove(e.localeId());
        } else if (event instanceof TokenCreatedEvent e) {
            c.tokens.put(e.tokenId(),
                new SnapshotContent.Token(e.referenceId(), e.label(), e.type(), e.script()));
        } else if (event instanceof TokenUpdatedEvent e) {
            c.tokens.computeIfPresent(e.tokenId(), (id, old) ->
                new SnapshotContent.Token(old.referenceId(), e.label(), e.type(), e.script()));
        } else if (event instanceof FunctionCreatedEvent e) {
            c.functions.put(e.functionId(),
                new SnapshotContent.Function(e.referenceId(), e.name(), e.code(), e.disabled()));
        } else if (event instanceof FunctionUpdatedEvent e) {
            c.functions.computeIfPresent(e.functionId(), (id, old) ->
                new SnapshotContent.Function(old.referenceId(), e.name(), e.code(), e.isDisabled()));
        } else if (event instanceof FlowCreatedEvent e) {
            Flow flow = new Flow(e.flowId(), e.referenceId());
            flow.name = e.name();
            flow.description = e.description();
            c.flows.put(e.flowId(), flow);
        } else if (event instanceof FlowUpdatedEvent e) {
            Flow flow = c.flows.get(e.flowId());
            flow.name = e.name();
            flow.description = e.description();
        } else if (event instanceof FlowIntentsTrainedEvent e) {
            c.flows.get(e.flowId()).trained.put(e.localeId(), new SnapshotContent.Trained(e.localeId(), e.modelId(),
                    e.trainingSetHash(), e.mode()));
        } else if (event instanceof FlowIntentsTrainingRestoredEvent e) {
            c.flows.get(e.flowId()).trained.put(e.localeId(), new SnapshotContent.Trained(e.localeId(), e.modelId(),
                    e.trainingSetHash(), e.mode()));
        } else if (event instanceof StateCreatedEvent e) {
            c.flows.get(e.flowId()).states.put(e.stateId(),
                new State(e.referenceId(), e.name(), e.type(), e.isDefault(), e.intentIds()));
        } else if (event instanceof StateUpdatedEvent e) {
            c.flows.get(e.flowId()).states.computeIfPresent(e.stateId(), (id, old) ->
                new State(old.referenceId(), e.name(), e.type(), e.isDefault(), e.intentIds()));
        } else if (event instanceof DefaultStateChangedEvent e) {
            Map<String, State> states = c.flows.get(e.flowId()).states;
            states.replaceAll((id, s) -> new State(s.referenceId(), s.name(), s.type(),
                    id.equals(e.defaultStateId()), s.intentIds()));
        } else if (event instanceof StateDeletedEvent e) {
            c.flows.get(e.flowId()).states.remove(e.stateId());
        } else if (event instanceof SlotFillerCreatedEvent e) {
            c.flows.get(e.flowId()).slotFillers.put(e.slotFillerId(), new SnapshotContent.SlotFiller(e.referenceId(),
                    new SlotFillerSettings(e.name(), e.type(), e.regex(), e.slot(), e.usePositiveOnly(),
                            e.removeNegated(), e.storeResultInContext(), e.contextKey(), e.storeInContactProfile(),
                            e.profileKey(), e.storeDetailedResults(), e.skipIfResultInContext(),
                            e.additionalValidation(), e.resultLocation())));
        } else if (event instanceof SlotFillerUpdatedEvent e) {
            c.flows.get(e.flowId()).slotFillers.computeIfPresent(e.slotFillerId(), (id, old) ->
                    new SnapshotContent.SlotFiller(old.referenceId(), new SlotFillerSettings(e.name(), e.type(),
                            e.regex(), e.slot(), e.usePositiveOnly(), e.removeNegated(), e.storeResultInContext(),
                            e.contextKey(), e.storeInContactProfile(), e.profileKey(), e.storeDetailedResults(),
                            e.skipIfResultInContext(), e.additionalValidation(), e.resultLocation())));
        } else if (event instanceof SlotFillerDeletedEvent e) {
            Flow flow = c.flows.get(e.flowId());
            if (flow != null) {
                flow.slotFillers.remove(e.slotFillerId());
            }
        } else if (event instanceof IntentCreatedEvent e) {
            Intent intent = new Intent(e.intentId(), e.flowId(), e.referenceId());
            intent.content = e;
            c.intents.put(e.intentId(), intent);
        } else if (event instanceof IntentUpdatedEvent e) {
            Intent intent = c.intents.get(e.intentId());
            IntentCreatedEvent was = intent.content;
            intent.content = new IntentCreatedEvent(was.intentId(), was.flowId(), was.projectId(),
                    was.organisationId(), was.referenceId(), e.name(), e.description(), e.tags(), e.rejectIntent(),
                    e.disabled(), e.parentIntentId(), e.condition(), e.confirmationSentences(),
                    e.disambiguationSentence(), e.rules(), e.data(), e.childFeatures(),
                    e.biasTowardsParentOrChildIntents(), was.createdBy(), was.createdAt());
        } else if (event instanceof SentenceCreatedEvent e) {
            c.intents.get(e.intentId()).sentences.put(e.sentenceId(),
                new SnapshotContent.Sentence(e.localeId(), e.text()));
        } else if (event instanceof SentenceUpdatedEvent e) {
            c.intents.get(e.intentId()).sentences.put(e.sentenceId(),
                new SnapshotContent.Sentence(e.localeId(), e.text()));
        } else if (event instanceof SentenceDeletedEvent e) {
            c.intents.get(e.intentId()).sentences.remove(e.sentenceId());
        } else if (event instanceof YesNoIntentSeededEvent e) {
            YesNo intent = new YesNo(e.yesNoIntentId(), e.localeId(), e.kind());
            e.sentences().forEach(sentence -> intent.sentences.put(sentence.sentenceId(), sentence.text()));
            c.yesNo.put(e.yesNoIntentId(), intent);
        } else if (event instanceof YesNoIntentUpdatedEvent e) {
            YesNo intent = c.yesNo.get(e.yesNoIntentId());
            intent.rules = List.copyOf(e.rules());
            intent.disabled = e.disabled();
        } else if (event instanceof YesNoIntentResetEvent e) {
            YesNo intent = c.yesNo.get(e.yesNoIntentId());
            intent.rules = List.of();
            intent.disabled = false;
            intent.sentences.clear();
            e.sentences().forEach(sentence -> intent.sentences.put(sentence.sentenceId(), sentence.text()));
        } else if (event instanceof YesNoSentenceCreatedEvent e) {
            c.yesNo.get(e.yesNoIntentId()).sentences.put(e.sentenceId(), e.text());
        } else if (event instanceof YesNoSentenceUpdatedEvent e) {
            c.yesNo.get(e.yesNoIntentId()).sentences.put(e.sentenceId(), e.text());
        } else if (event instanceof YesNoSentenceDeletedEvent e) {
            c.yesNo.get(e.yesNoIntentId()).sentences.remove(e.sentenceId());
        }
        // other events (deletions of unlisted aggregates, a project rename) hold nothing a snapshot keeps
    }

    /** What the captured project holds, for indexResourcesInSnapshot: its locales, flows and their states. */
    static List<ai.convo.contract.snapshot.SnapshotResource> resources(Captured c) {
        List<ai.convo.contract.snapshot.SnapshotResource> all = new ArrayList<>();
        c.locales.values().forEach(l -> all.add(new ai.convo.contract.snapshot.SnapshotResource("locale", l.id,
                l.referenceId, l.name)));
        for (Flow flow : c.flows.values()) {
            all.add(new ai.convo.contract.snapshot.SnapshotResource("flow", flow.id, flow.referenceId, flow.name));
            flow.states.forEach((stateId, state) -> all.add(new ai.convo.contract.snapshot.SnapshotResource(
                    "flowState", stateId, state.referenceId(), state.name())));
        }
        return all;
    }

    /** The captured project as canonical content: ids replaced by referenceIds, everything sorted. */
    static SnapshotContent toContent(Captured c) {
        Map<String, String> localeRefs = new HashMap<>();
        c.locales.values().forEach(l -> localeRefs.put(l.id, l.referenceId));
        Map<String, String> intentRefs = new HashMap<>();
        c.intents.values().forEach(i -> intentRefs.put(i.id, i.referenceId));

        Map<String, List<SnapshotContent.YesNoIntent>> yesNo = new HashMap<>();
        c.yesNo.values().stream().filter(y -> c.locales.containsKey(y.localeId)
                && !asBuiltIn(y, c.locales.get(y.localeId).nluLanguage)).forEach(y -> yesNo.computeIfAbsent(
                        y.localeId, l -> new ArrayList<>()).add(
                new SnapshotContent.YesNoIntent(y.kind, y.rules, y.disabled, y.sentences.values().stream().sorted()
                        .toList())));
        yesNo.values().forEach(list -> list.sort(Comparator.comparing(SnapshotContent.YesNoIntent::kind)));
        List<SnapshotContent.Locale> locales = c.locales.values().stream()
                .map(l -> new SnapshotContent.Locale(l.referenceId, l.name, l.nluLanguage, l.primary,
                        l.fallbackId == null ? null : localeRefs.get(l.fallbackId),
                        yesNo.getOrDefault(l.id, List.of())))
                .sorted(Comparator.comparing(SnapshotContent.Locale::referenceId)).toList();
        List<SnapshotContent.Token> tokens = c.tokens.values().stream()
                .sorted(Comparator.comparing(SnapshotContent.Token::referenceId)).toList();
        List<SnapshotContent.Function> functions = c.functions.values().stream()
                .sorted(Comparator.comparing(SnapshotContent.Function::referenceId)).toList();

        Map<String, List<SnapshotContent.Intent>> intentsByFlow = new HashMap<>();
        for (Intent i : c.intents.values()) {
            IntentCreatedEvent e = i.content;
            List<SnapshotContent.Sentence> sentences = i.sentences.values().stream()
                    .map(s -> new SnapshotContent.Sentence(localeRefs.get(s.localeReference()), s.text()))
                    .filter(s -> s.localeReference() != null)
                    .sorted(Comparator.comparing(SnapshotContent.Sentence::localeReference)
                            .thenComparing(SnapshotContent.Sentence::text))
                    .toList();
            intentsByFlow.computeIfAbsent(i.flowId, f -> new ArrayList<>()).add(new SnapshotContent.Intent(
                    i.referenceId, e.name(), e.description(), e.tags(), e.rejectIntent(), e.disabled(),
                    e.parentIntentId() == null ? null : intentRefs.get(e.parentIntentId()), e.condition(),
                    e.confirmationSentences(), e.disambiguationSentence(), e.rules(), e.data(),
                    childFeatures(e.childFeatures(), intentRefs), e.biasTowardsParentOrChildIntents(), sentences));
        }
        List<SnapshotContent.Flow> flows = c.flows.values().stream()
                .map(f -> new SnapshotContent.Flow(f.referenceId, f.name, f.description,
                        f.states.values().stream()
                                .map(s -> new SnapshotContent.State(s.referenceId(), s.name(), s.type(), s.isDefault(),
                                        s.intentIds() == null ? List.of() : s.intentIds().stream()
                                                .map(intentRefs::get).filter(Objects::nonNull).toList()))
                                .sorted(Comparator.comparing(SnapshotContent.State::referenceId)).toList(),
                        intentsByFlow.getOrDefault(f.id, List.of()).stream()
                                .sorted(Comparator.comparing(SnapshotContent.Intent::referenceId)).toList(),
                        f.slotFillers.values().stream()
                                .sorted(Comparator.comparing(SnapshotContent.SlotFiller::referenceId)).toList(),
                        f.trained.values().stream().filter(t -> localeRefs.containsKey(t.localeReference()))
                                .map(t -> new SnapshotContent.Trained(localeRefs.get(t.localeReference()),
                                        t.modelId(), t.trainingSetHash(), t.mode()))
                                .sorted(Comparator.comparing(SnapshotContent.Trained::localeReference)).toList()))
                .sorted(Comparator.comparing(SnapshotContent.Flow::referenceId)).toList();
        return new SnapshotContent(SnapshotContent.FORMAT, locales, tokens, functions, flows);
    }

    /**
     * Whether a yes/no intent holds what one never written holds (its language's built-in sentences, no rules,
     * enabled): content leaves it out, so a project reads the same before and after its yes/no intents are seeded.
     */
    static boolean asBuiltIn(YesNo intent, String nluLanguage) {
        java.util.Optional<YesNoKind> kind = YesNoKind.parse(intent.kind);
        if (kind.isEmpty() || !intent.rules.isEmpty() || intent.disabled) {
            return false;
        }
        return intent.sentences.values().stream().sorted().toList().equals(YesNoSeeds.sentences(
                YesNoIntentId.of(intent.id), kind.get(), nluLanguage).stream().map(YesNoSentence::text).sorted()
                .toList());
    }

    private static Object childFeatures(ChildFeatures features, Map<String, String> intentRefs) {
        if (features == null) {
            return false;
        }
        if (features.all() != null) {
            return features.all();
        }
        return features.intentIds().stream().map(intentRefs::get).filter(Objects::nonNull).toList();
    }
}
