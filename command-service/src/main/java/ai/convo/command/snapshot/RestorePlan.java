package ai.convo.command.snapshot;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.function.FunctionUpdatedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.slotfiller.SlotFillerCreatedEvent;
import ai.convo.contract.slotfiller.SlotFillerDeletedEvent;
import ai.convo.contract.slotfiller.SlotFillerSettings;
import ai.convo.contract.slotfiller.SlotFillerUpdatedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateUpdatedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentResetEvent;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoSentence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.messaging.MetaData;

/**
 * The events that make a project exactly a snapshot's content, computed before anything is written. They are
 * the same events the ordinary commands emit, so every write-side lookup and read model handles them as it
 * always does. Every resource (locale, token, function, flow, state, intent, slot filler) is matched by referenceId
 * (a locale's yes/no intents go with their locale): one the
 * project still has keeps its {@code _id} and is updated to the snapshot's content where it differs (so scripts
 * and configurations holding its id keep working), one it lacks is created with a new {@code _id}, one the
 * snapshot lacks is deleted. A kept intent's sentences are replaced when they differ. Restoring into another
 * project matches nothing there, so everything is created anew. New resources' meta is the restore's.
 *
 * <p>Order matters for the lookups: locales are created first (sentences name them), deletions of tokens come
 * before creations (labels are unique per project), locales the snapshot lacks are deleted last.
 */
final class RestorePlan {

    private final String projectId;
    private final String organisationId;
    private final String by;
    private final long at;
    private final Map<String, Long> lastSequence;
    private final List<DomainEventMessage<?>> events = new ArrayList<>();

    /**
     * The aggregate types the events are stored under: each aggregate's class name, as Axon stores the aggregate's
     * own events. Names, not classes: snapshot writes into the features' streams but does not depend on them
     * (RestorePlanTest holds the names to the classes).
     */
    static final String PROJECT = "ProjectAggregate";
    static final String TOKEN = "TokenAggregate";
    static final String FUNCTION = "FunctionAggregate";
    static final String FLOW = "FlowAggregate";
    static final String INTENT = "IntentAggregate";
    static final String SLOT_FILLER = "SlotFillerAggregate";
    static final String YES_NO = "YesNoIntentAggregate";

    /** On an event the plan also takes care of the consequences of (see CommandSideProcessing). */
    static final MetaData PLANNED = MetaData.with(CommandSideProcessing.CONSEQUENCES_PLANNED, true);

    private RestorePlan(ProjectCapture.Captured current, String projectId, String by, long at) {
        this.projectId = projectId;
        this.organisationId = current.organisationId;
        this.by = by;
        this.at = at;
        this.lastSequence = new HashMap<>(current.lastSequence);
    }

    static List<DomainEventMessage<?>> build(SnapshotContent snapshot, ProjectCapture.Captured current,
                                             String projectId, String by, long at) {
        RestorePlan plan = new RestorePlan(current, projectId, by, at);
        Map<String, String> localeIds = plan.locales(snapshot, current);
        plan.tokens(snapshot, current);
        plan.functions(snapshot, current);
        plan.flows(snapshot, current, localeIds);
        plan.yesNoIntents(snapshot, current, localeIds);
        plan.deleteLocalesNotIn(snapshot, current);
        return plan.events;
    }

    // ---- yes/no intents (one aggregate per locale and kind, its id derived from both)

    /**
     * Makes every snapshot locale's yes, no and reject intents the snapshot's: one it holds as held, one it lacks
     * as never written (its language's built-in sentences, no rules, enabled). An intent never written here is
     * seeded first, as its first command would; sentences that differ are replaced at once (kept texts keep their
     * ids), which clears rules and disabled, so those are set after.
     */
    private void yesNoIntents(SnapshotContent snapshot, ProjectCapture.Captured current,
                              Map<String, String> localeIds) {
        for (SnapshotContent.Locale locale : snapshot.locales()) {
            String localeId = localeIds.get(locale.referenceId());
            for (YesNoKind kind : YesNoKind.values()) {
                YesNoIntentId id = YesNoIntentId.of(localeId, kind);
                List<YesNoSentence> builtIn = YesNoSeeds.sentences(id, kind, locale.nluLanguage());
                SnapshotContent.YesNoIntent wanted = locale.yesNoIntents().stream()
                        .filter(y -> y.kind().equals(kind.wire())).findFirst()
                        .orElse(new SnapshotContent.YesNoIntent(kind.wire(), List.of(), false,
                                builtIn.stream().map(YesNoSentence::text).sorted().toList()));
                ProjectCapture.YesNo now = current.yesNo.get(id.value());
                Map<String, String> sentences = new LinkedHashMap<>();
                if (now != null) {
                    sentences.putAll(now.sentences);
                } else {
                    builtIn.forEach(sentence -> sentences.put(sentence.sentenceId(), sentence.text()));
                }
                List<String> rules = now != null ? now.rules : List.of();
                boolean disabled = now != null && now.disabled;
                boolean sameSentences = sentences.values().stream().sorted().toList().equals(wanted.sentences());
                if (sameSentences && rules.equals(wanted.rules()) && disabled == wanted.disabled()) {
                    continue;
                }
                if (now == null) {
                    next(YES_NO, id.value(), new YesNoIntentSeededEvent(id.value(), localeId, projectId,
                            organisationId, kind.wire(), locale.nluLanguage(), builtIn, by, at));
                }
                if (!sameSentences) {
                    Map<String, List<String>> idsByText = new HashMap<>();
                    sentences.forEach((sentenceId, text) -> idsByText.computeIfAbsent(text, t -> new ArrayList<>())
                            .add(sentenceId));
                    List<YesNoSentence> replaced = new ArrayList<>();
                    for (String text : wanted.sentences()) {
                        List<String> kept = idsByText.getOrDefault(text, new ArrayList<>());
                        replaced.add(new YesNoSentence(kept.isEmpty() ? Ids.newId() : kept.remove(0), text));
                    }
                    next(YES_NO, id.value(), new YesNoIntentResetEvent(id.value(), localeId, projectId, organisationId,
                            locale.nluLanguage(), replaced, by, at));
                    rules = List.of();
                    disabled = false;
                }
                if (!rules.equals(wanted.rules()) || disabled != wanted.disabled()) {
                    next(YES_NO, id.value(), new YesNoIntentUpdatedEvent(id.value(), localeId, projectId,
                            organisationId, wanted.rules(), wanted.disabled(), by, at));
                }
            }
        }
    }

    // ---- locales (in the project aggregate)

    /** Creates and updates locales; answers the locale id of every snapshot locale referenceId. */
    private Map<String, String> locales(SnapshotContent snapshot, ProjectCapture.Captured current) {
        Map<String, ProjectCapture.Locale> byReference = new HashMap<>();
        current.locales.values().forEach(l -> byReference.put(l.referenceId, l));
        Map<String, String> ids = new HashMap<>();
        for (SnapshotContent.Locale locale : snapshot.locales()) {
            ProjectCapture.Locale existing = byReference.get(locale.referenceId());
            ids.put(locale.referenceId(), existing != null ? existing.id : Ids.newId());
        }
        for (SnapshotContent.Locale locale : snapshot.locales()) {
            if (!byReference.containsKey(locale.referenceId())) {
                project(new LocaleCreatedEvent(projectId, organisationId, ids.get(locale.referenceId()),
                        locale.referenceId(), locale.name(), locale.nluLanguage(), false, null, by, at));
            }
        }
        String primary = null;
        for (SnapshotContent.Locale locale : snapshot.locales()) {
            String id = ids.get(locale.referenceId());
            String fallback = locale.fallbackLocaleReference() == null ? null : ids.get(locale.fallbackLocaleReference());
            ProjectCapture.Locale existing = byReference.get(locale.referenceId());
            String name = existing != null ? existing.name : locale.name();
            String language = existing != null ? existing.nluLanguage : locale.nluLanguage();
            String wasFallback = existing != null ? existing.fallbackId : null;
            boolean isPrimary = existing != null && existing.primary;
            List<String> changed = new ArrayList<>();
            if (!name.equals(locale.name())) {
                changed.add("name");
            }
            if (!language.equals(locale.nluLanguage())) {
                changed.add("nluLanguage");
            }
            if (!Objects.equals(wasFallback, fallback)) {
                changed.add("fallbackLocaleReference");
            }
            if (!changed.isEmpty()) {
                project(new LocaleUpdatedEvent(projectId, organisationId, id, changed, locale.name(),
                        locale.nluLanguage(), isPrimary, fallback, by, at));
            }
            if (locale.primary()) {
                primary = id;
            }
        }
        if (primary != null && !primary.equals(current.primaryLocaleId)) {
            SnapshotContent.Locale wanted = snapshot.locales().stream()
                    .filter(l -> l.primary()).findFirst().orElseThrow();
            project(new LocaleUpdatedEvent(projectId, organisationId, primary, List.of("primary"), wanted.name(),
                    wanted.nluLanguage(), true, wanted.fallbackLocaleReference() == null ? null
                    : ids.get(wanted.fallbackLocaleReference()), by, at));
            project(new PrimaryLocaleChangedEvent(projectId, organisationId, current.primaryLocaleId, primary, by, at));
        }
        return ids;
    }

    private void deleteLocalesNotIn(SnapshotContent snapshot, ProjectCapture.Captured current) {
        List<String> kept = snapshot.locales().stream().map(SnapshotContent.Locale::referenceId).toList();
        for (ProjectCapture.Locale locale : current.locales.values()) {
            if (!kept.contains(locale.referenceId)) {
                project(new LocaleDeletedEvent(projectId, organisationId, locale.id, by, at));
            }
        }
    }

    // ---- tokens and functions: matched by referenceId, kept (with their ids) where they match

    private void tokens(SnapshotContent snapshot, ProjectCapture.Captured current) {
        Map<String, String> idByReference = new HashMap<>();
        current.tokens.forEach((id, token) -> idByReference.put(token.referenceId(), id));
        Set<String> wanted = new HashSet<>();
        snapshot.tokens().forEach(t -> wanted.add(t.referenceId()));
        current.tokens.forEach((id, token) -> {
            if (!wanted.contains(token.referenceId())) {
                next(TOKEN, id, new TokenDeletedEvent(id, projectId, organisationId, by, at));
            }
        });
        // labels are unique per project: when a kept token's new label is another kept token's label now, every
        // relabelled token first takes a label of its own, then its snapshot label
        Map<String, String> relabelled = new LinkedHashMap<>();
        Set<String> held = new HashSet<>();
        for (SnapshotContent.Token token : snapshot.tokens()) {
            String id = idByReference.get(token.referenceId());
            if (id != null) {
                held.add(current.tokens.get(id).label().toLowerCase(Locale.ROOT));
                if (!current.tokens.get(id).label().equals(token.label())) {
                    relabelled.put(id, token.label());
                }
            }
        }
        if (relabelled.values().stream().anyMatch(label -> held.contains(label.toLowerCase(Locale.ROOT)))) {
            relabelled.keySet().forEach(id -> {
                SnapshotContent.Token now = current.tokens.get(id);
                next(TOKEN, id, new TokenUpdatedEvent(id, projectId, organisationId, List.of("label"),
                        "~restoring " + id, now.type(), now.script(), by, at));
            });
        }
        for (SnapshotContent.Token token : snapshot.tokens()) {
            String id = idByReference.get(token.referenceId());
            if (id == null) {
                String created = Ids.newId();
                next(TOKEN, created, new TokenCreatedEvent(created, projectId, organisationId,
                        token.referenceId(), token.label(), token.type(), token.script(), by, at));
                continue;
            }
            SnapshotContent.Token now = current.tokens.get(id);
            List<String> changed = changed(List.of("label", "type", "script"),
                    List.of(now.label(), now.type(), now.script()), List.of(token.label(), token.type(), token.script()));
            if (!changed.isEmpty()) {
                next(TOKEN, id, new TokenUpdatedEvent(id, projectId, organisationId, changed,
                        token.label(), token.type(), token.script(), by, at));
            }
        }
    }

    private void functions(SnapshotContent snapshot, ProjectCapture.Captured current) {
        Map<String, String> idByReference = new HashMap<>();
        current.functions.forEach((id, function) -> idByReference.put(function.referenceId(), id));
        Set<String> wanted = new HashSet<>();
        snapshot.functions().forEach(f -> wanted.add(f.referenceId()));
        current.functions.forEach((id, function) -> {
            if (!wanted.contains(function.referenceId())) {
                next(FUNCTION, id, new FunctionDeletedEvent(id, projectId, organisationId, by, at));
            }
        });
        for (SnapshotContent.Function function : snapshot.functions()) {
            String id = idByReference.get(function.referenceId());
            if (id == null) {
                String created = Ids.newId();
                next(FUNCTION, created, new FunctionCreatedEvent(created, projectId, organisationId,
                        function.referenceId(), function.name(), function.code(), function.disabled(), by, at));
                continue;
            }
            SnapshotContent.Function now = current.functions.get(id);
            List<String> changed = changed(List.of("name", "code", "isDisabled"),
                    List.of(now.name(), now.code(), now.disabled()),
                    List.of(function.name(), function.code(), function.disabled()));
            if (!changed.isEmpty()) {
                next(FUNCTION, id, new FunctionUpdatedEvent(id, projectId, organisationId, changed,
                        function.name(), function.code(), function.disabled(), by, at));
            }
        }
    }

    // ---- flows with their states, intents and sentences: matched by referenceId like tokens

    private void flows(SnapshotContent snapshot, ProjectCapture.Captured current, Map<String, String> localeIds) {
        Map<String, ProjectCapture.Flow> flowByReference = new HashMap<>();
        current.flows.values().forEach(f -> flowByReference.put(f.referenceId, f));
        Set<String> wanted = new HashSet<>();
        snapshot.flows().forEach(f -> wanted.add(f.referenceId()));
        for (ProjectCapture.Flow flow : current.flows.values()) {
            if (!wanted.contains(flow.referenceId)) {
                // its intents, states and sentences go with it (the lookups and read models delete them)
                next(FLOW, flow.id, new FlowDeletedEvent(flow.id, projectId, organisationId, by, at));
            }
        }
        for (SnapshotContent.Flow flow : snapshot.flows()) {
            ProjectCapture.Flow kept = flowByReference.get(flow.referenceId());
            String flowId = kept != null ? kept.id : Ids.newId();
            if (kept == null) {
                next(FLOW, flowId, new FlowCreatedEvent(flowId, projectId, organisationId,
                        flow.referenceId(), flow.name(), flow.description(), by, at));
            } else {
                List<String> changed = changed(List.of("name", "description"), List.of(kept.name, kept.description),
                        List.of(flow.name(), flow.description()));
                if (!changed.isEmpty()) {
                    next(FLOW, flowId, new FlowUpdatedEvent(flowId, projectId, organisationId, changed,
                            flow.name(), flow.description(), by, at));
                }
            }
            Map<String, String> intentIds = intents(flow, flowId, kept, current, localeIds);
            states(flow, flowId, kept, intentIds);
            slotFillers(flow, flowId, kept);
            trained(flow, flowId, kept, intentIds, localeIds);
        }
    }

    /**
     * Brings back each pinned training whose set is exactly the restored one (same intent ids, names and sentences:
     * the model answers with those ids), unless it is already the flow's last; elsewhere (intents created anew, as in
     * another project) the flow keeps the training it has and a new training is needed.
     */
    private void trained(SnapshotContent.Flow flow, String flowId, ProjectCapture.Flow kept,
                         Map<String, String> intentIds, Map<String, String> localeIds) {
        for (SnapshotContent.Trained pinned : flow.trained()) {
            String localeId = localeIds.get(pinned.localeReference());
            if (localeId == null || !pinned.trainingSetHash().equals(
                    RestoredTrainingSet.hash(flow, pinned.localeReference(), intentIds))) {
                continue;
            }
            SnapshotContent.Trained now = kept == null ? null : kept.trained.get(localeId);
            if (now != null && now.modelId().equals(pinned.modelId())
                    && now.trainingSetHash().equals(pinned.trainingSetHash())) {
                continue;
            }
            next(FLOW, flowId, new FlowIntentsTrainingRestoredEvent(flowId, projectId, organisationId, localeId,
                    pinned.mode(), pinned.modelId(), pinned.trainingSetHash(), by, at));
        }
    }

    /** The flow's slot fillers made the snapshot's, kept by referenceId like tokens. */
    private void slotFillers(SnapshotContent.Flow flow, String flowId, ProjectCapture.Flow kept) {
        Map<String, String> idByReference = new HashMap<>();
        if (kept != null) {
            kept.slotFillers.forEach((id, filler) -> idByReference.put(filler.referenceId(), id));
        }
        Set<String> wanted = new HashSet<>();
        flow.slotFillers().forEach(f -> wanted.add(f.referenceId()));
        idByReference.forEach((reference, id) -> {
            if (!wanted.contains(reference)) {
                next(SLOT_FILLER, id, new SlotFillerDeletedEvent(id, flowId, projectId, organisationId, by, at));
            }
        });
        for (SnapshotContent.SlotFiller filler : flow.slotFillers()) {
            SlotFillerSettings s = filler.settings();
            String id = idByReference.get(filler.referenceId());
            if (id == null) {
                String created = Ids.newId();
                next(SLOT_FILLER, created, new SlotFillerCreatedEvent(created, flowId, projectId, organisationId,
                        filler.referenceId(), s.name(), s.type(), s.regex(), s.slot(), s.usePositiveOnly(),
                        s.removeNegated(), s.storeResultInContext(), s.contextKey(), s.storeInContactProfile(),
                        s.profileKey(), s.storeDetailedResults(), s.skipIfResultInContext(), s.additionalValidation(),
                        s.resultLocation(), by, at));
                continue;
            }
            SlotFillerSettings now = kept.slotFillers.get(id).settings();
            List<String> changed = changed(SLOT_FILLER_FIELDS, settingsValues(now), settingsValues(s));
            if (!changed.isEmpty()) {
                next(SLOT_FILLER, id, new SlotFillerUpdatedEvent(id, flowId, projectId, organisationId, changed,
                        s.name(), s.type(), s.regex(), s.slot(), s.usePositiveOnly(), s.removeNegated(),
                        s.storeResultInContext(), s.contextKey(), s.storeInContactProfile(), s.profileKey(),
                        s.storeDetailedResults(), s.skipIfResultInContext(), s.additionalValidation(),
                        s.resultLocation(), by, at));
            }
        }
    }

    private static final List<String> SLOT_FILLER_FIELDS = List.of("name", "type", "regex", "slot",
            "usePositiveOnly", "removeNegated", "storeResultInContext", "contextKey", "storeInContactProfile",
            "profileKey", "storeDetailedResults", "skipIfResultInContext", "additionalValidation", "resultLocation");

    private static List<Object> settingsValues(SlotFillerSettings s) {
        return Arrays.asList(s.name(), s.type(), s.regex(), s.slot(), s.usePositiveOnly(), s.removeNegated(),
                s.storeResultInContext(), s.contextKey(), s.storeInContactProfile(), s.profileKey(),
                s.storeDetailedResults(), s.skipIfResultInContext(), s.additionalValidation(), s.resultLocation());
    }

    /** The flow's intents made the snapshot's; answers the intent id of every snapshot intent referenceId. */
    private Map<String, String> intents(SnapshotContent.Flow flow, String flowId, ProjectCapture.Flow kept,
                                        ProjectCapture.Captured current, Map<String, String> localeIds) {
        Map<String, ProjectCapture.Intent> byReference = new HashMap<>();
        if (kept != null) {
            current.intents.values().stream().filter(i -> i.flowId.equals(kept.id))
                    .forEach(i -> byReference.put(i.referenceId, i));
        }
        Set<String> wanted = new HashSet<>();
        flow.intents().forEach(i -> wanted.add(i.referenceId()));
        // Deleted first, so their names are free. Marked as planned: the restore sets every kept intent's parent
        // itself, so the deletion must not detach children through commands of its own.
        for (ProjectCapture.Intent intent : byReference.values()) {
            if (!wanted.contains(intent.referenceId)) {
                next(INTENT, intent.id, new IntentDeletedEvent(intent.id, flowId, projectId,
                        organisationId, by, at), PLANNED);
            }
        }
        Map<String, String> intentIds = new HashMap<>();
        flow.intents().forEach(i -> {
            ProjectCapture.Intent existing = byReference.get(i.referenceId());
            intentIds.put(i.referenceId(), existing != null ? existing.id : Ids.newId());
        });
        // names are unique per flow: as for token labels, renamed intents first take a name of their own on a clash
        Set<String> held = new HashSet<>();
        List<ProjectCapture.Intent> renamed = new ArrayList<>();
        for (SnapshotContent.Intent intent : flow.intents()) {
            ProjectCapture.Intent existing = byReference.get(intent.referenceId());
            if (existing != null) {
                held.add(existing.content.name().toLowerCase(Locale.ROOT));
                if (!existing.content.name().equals(intent.name())) {
                    renamed.add(existing);
                }
            }
        }
        boolean clash = flow.intents().stream().anyMatch(i -> byReference.containsKey(i.referenceId())
                && !byReference.get(i.referenceId()).content.name().equals(i.name())
                && held.contains(i.name().toLowerCase(Locale.ROOT)));
        if (clash) {
            for (ProjectCapture.Intent existing : renamed) {
                IntentCreatedEvent was = existing.content;
                next(INTENT, existing.id, new IntentUpdatedEvent(existing.id, flowId, projectId,
                        organisationId, List.of("name"), "~restoring " + existing.id, was.description(), was.tags(),
                        was.rejectIntent(), was.disabled(), was.parentIntentId(), was.condition(),
                        was.confirmationSentences(), was.disambiguationSentence(), was.rules(), was.data(),
                        was.childFeatures(), was.biasTowardsParentOrChildIntents(), by, at));
            }
        }
        for (SnapshotContent.Intent intent : parentsFirst(flow.intents())) {
            String intentId = intentIds.get(intent.referenceId());
            String parent = intent.parentReference() == null ? null : intentIds.get(intent.parentReference());
            ChildFeatures features = childFeatures(intent.childFeatures(), intentIds);
            ProjectCapture.Intent existing = byReference.get(intent.referenceId());
            if (existing == null) {
                next(INTENT, intentId, new IntentCreatedEvent(intentId, flowId, projectId,
                        organisationId, intent.referenceId(), intent.name(), intent.description(), intent.tags(),
                        intent.rejectIntent(), intent.disabled(), parent, intent.condition(),
                        intent.confirmationSentences(), intent.disambiguationSentence(), intent.rules(), intent.data(),
                        features, intent.biasTowardsParentOrChildIntents(), by, at));
            } else {
                IntentCreatedEvent was = existing.content;
                List<String> changed = changed(
                        List.of("name", "description", "tags", "isRejectIntent", "isDisabled", "parentIntentId",
                                "condition", "confirmationSentences", "disambiguationSentence", "rules", "data",
                                "childFeatures", "biasTowardsParentOrChildIntents"),
                        Arrays.asList(clash && renamed.contains(existing) ? null : was.name(), was.description(),
                                was.tags(), was.rejectIntent(), was.disabled(), was.parentIntentId(), was.condition(),
                                was.confirmationSentences(), was.disambiguationSentence(), was.rules(), was.data(),
                                was.childFeatures(), was.biasTowardsParentOrChildIntents()),
                        Arrays.asList(intent.name(), intent.description(), intent.tags(), intent.rejectIntent(),
                                intent.disabled(), parent, intent.condition(), intent.confirmationSentences(),
                                intent.disambiguationSentence(), intent.rules(), intent.data(), features,
                                intent.biasTowardsParentOrChildIntents()));
                if (!changed.isEmpty()) {
                    next(INTENT, intentId, new IntentUpdatedEvent(intentId, flowId, projectId,
                            organisationId, changed, intent.name(), intent.description(), intent.tags(),
                            intent.rejectIntent(), intent.disabled(), parent, intent.condition(),
                            intent.confirmationSentences(), intent.disambiguationSentence(), intent.rules(),
                            intent.data(), features, intent.biasTowardsParentOrChildIntents(), by, at));
                }
            }
            sentences(intent, intentId, flowId, existing, localeIds);
        }
        return intentIds;
    }

    /** A kept intent keeps its sentences when they are the snapshot's; otherwise they are replaced. */
    private void sentences(SnapshotContent.Intent intent, String intentId, String flowId, ProjectCapture.Intent existing,
                           Map<String, String> localeIds) {
        List<String> wanted = intent.sentences().stream()
                .map(s -> localeIds.get(s.localeReference()) + "\n" + s.text()).sorted().toList();
        if (existing != null) {
            List<String> now = existing.sentences.values().stream()
                    .map(s -> s.localeReference() + "\n" + s.text()).sorted().toList();
            if (now.equals(wanted)) {
                return;
            }
            existing.sentences.forEach((sentenceId, sentence) -> next(INTENT, intentId,
                    new SentenceDeletedEvent(sentenceId, intentId, flowId, projectId, organisationId,
                            sentence.localeReference(), by, at)));
        }
        for (SnapshotContent.Sentence sentence : intent.sentences()) {
            next(INTENT, intentId, new SentenceCreatedEvent(Ids.newId(), intentId, flowId, projectId,
                    organisationId, localeIds.get(sentence.localeReference()), sentence.text(), by, at));
        }
    }

    /** The flow's states made the snapshot's, kept by referenceId; the default moves with a DefaultStateChanged. */
    private void states(SnapshotContent.Flow flow, String flowId, ProjectCapture.Flow kept, Map<String, String> intentIds) {
        Map<String, String> idByReference = new HashMap<>();
        String previousDefault = null;
        if (kept != null) {
            for (Map.Entry<String, ProjectCapture.State> state : kept.states.entrySet()) {
                idByReference.put(state.getValue().referenceId(), state.getKey());
                if (state.getValue().isDefault()) {
                    previousDefault = state.getKey();
                }
            }
        }
        Set<String> wanted = new HashSet<>();
        flow.states().forEach(s -> wanted.add(s.referenceId()));
        if (kept != null) {
            for (Map.Entry<String, ProjectCapture.State> state : kept.states.entrySet()) {
                if (!wanted.contains(state.getValue().referenceId())) {
                    next(FLOW, flowId, new StateDeletedEvent(flowId, projectId, organisationId,
                            state.getKey(), by, at));
                    if (state.getKey().equals(previousDefault)) {
                        previousDefault = null;
                    }
                }
            }
        }
        String newDefault = null;
        for (SnapshotContent.State state : flow.states()) {
            List<String> named = state.intentReferences().stream().map(intentIds::get).filter(Objects::nonNull).toList();
            String stateId = idByReference.get(state.referenceId());
            if (stateId == null) {
                stateId = Ids.newId();
                next(FLOW, flowId, new StateCreatedEvent(flowId, projectId, organisationId, stateId,
                        state.referenceId(), state.name(), state.type(), state.isDefault(), named, by, at));
            } else {
                ProjectCapture.State now = kept.states.get(stateId);
                List<String> changed = changed(List.of("name", "type", "isDefault", "intentIds"),
                        Arrays.asList(now.name(), now.type(), now.isDefault(), now.intentIds()),
                        Arrays.asList(state.name(), state.type(), state.isDefault(), named));
                if (!changed.isEmpty()) {
                    next(FLOW, flowId, new StateUpdatedEvent(flowId, projectId, organisationId, stateId,
                            changed, state.name(), state.type(), state.isDefault(), named, by, at));
                }
            }
            if (state.isDefault()) {
                newDefault = stateId;
            }
        }
        if (newDefault != null && !newDefault.equals(previousDefault)) {
            next(FLOW, flowId, new DefaultStateChangedEvent(flowId, projectId, organisationId,
                    previousDefault, newDefault, by, at));
        }
    }

    /** The names of the fields whose values differ. */
    private static List<String> changed(List<String> names, List<?> now, List<?> wanted) {
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!Objects.equals(now.get(i), wanted.get(i))) {
                changed.add(names.get(i));
            }
        }
        return changed;
    }

    /** A parent before its children, so the intent lookup and read models always know the parent already. */
    private static List<SnapshotContent.Intent> parentsFirst(List<SnapshotContent.Intent> intents) {
        Map<String, SnapshotContent.Intent> byReference = new HashMap<>();
        intents.forEach(i -> byReference.put(i.referenceId(), i));
        List<SnapshotContent.Intent> ordered = new ArrayList<>(intents.size());
        java.util.Set<String> placed = new java.util.HashSet<>();
        for (SnapshotContent.Intent intent : intents) {
            place(intent, byReference, placed, ordered);
        }
        return ordered;
    }

    private static void place(SnapshotContent.Intent intent, Map<String, SnapshotContent.Intent> byReference,
                              java.util.Set<String> placed, List<SnapshotContent.Intent> ordered) {
        List<SnapshotContent.Intent> chain = new ArrayList<>();
        for (SnapshotContent.Intent at = intent; at != null && !placed.contains(at.referenceId());
             at = at.parentReference() == null ? null : byReference.get(at.parentReference())) {
            chain.add(0, at);
            placed.add(at.referenceId());
        }
        ordered.addAll(chain);
    }

    @SuppressWarnings("unchecked")
    private static ChildFeatures childFeatures(Object wire, Map<String, String> intentIds) {
        if (wire instanceof Boolean all) {
            return ChildFeatures.of(all);
        }
        if (wire instanceof List<?> references) {
            return ChildFeatures.of(((List<String>) references).stream().map(intentIds::get)
                    .filter(Objects::nonNull).toList());
        }
        return ChildFeatures.NONE;
    }

    // ---- messages

    private void project(Object payload) {
        next(PROJECT, projectId, payload);
    }

    private void next(String aggregateType, String aggregateId, Object payload) {
        next(aggregateType, aggregateId, payload, MetaData.emptyInstance());
    }

    private void next(String aggregateType, String aggregateId, Object payload, MetaData metaData) {
        long sequence = lastSequence.merge(aggregateId, 0L, (last, zero) -> last + 1);
        events.add(new GenericDomainEventMessage<>(aggregateType, aggregateId, sequence, payload, metaData));
    }
}
