package ai.convo.command.snapshot;

import ai.convo.command.flow.FlowAggregate;
import ai.convo.command.function.FunctionAggregate;
import ai.convo.command.intent.IntentAggregate;
import ai.convo.command.project.ProjectAggregate;
import ai.convo.command.token.TokenAggregate;
import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.function.FunctionCreatedEvent;
import ai.convo.contract.function.FunctionDeletedEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;

/**
 * The events that make a project exactly a snapshot's content, computed before anything is written. They are
 * the same events the ordinary commands emit, so every write-side lookup and read model handles them as it
 * always does. The project's tokens, functions and flows (with their states, intents and sentences) are deleted
 * and the snapshot's are created anew, with new {@code _id}s and the snapshot's referenceIds; locales are matched
 * by referenceId and kept (their ids too) where they match, created where the snapshot has more, deleted where it
 * has fewer. The restored resources' meta (createdBy, createdAt) is the restore's.
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
        plan.deleteLocalesNotIn(snapshot, current);
        return plan.events;
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

    // ---- tokens and functions

    private void tokens(SnapshotContent snapshot, ProjectCapture.Captured current) {
        for (String tokenId : current.tokens.keySet()) {
            next(TokenAggregate.class, tokenId, new TokenDeletedEvent(tokenId, projectId, organisationId, by, at));
        }
        for (SnapshotContent.Token token : snapshot.tokens()) {
            String id = Ids.newId();
            next(TokenAggregate.class, id, new TokenCreatedEvent(id, projectId, organisationId, token.referenceId(),
                    token.label(), token.type(), token.script(), by, at));
        }
    }

    private void functions(SnapshotContent snapshot, ProjectCapture.Captured current) {
        for (String functionId : current.functions.keySet()) {
            next(FunctionAggregate.class, functionId,
                    new FunctionDeletedEvent(functionId, projectId, organisationId, by, at));
        }
        for (SnapshotContent.Function function : snapshot.functions()) {
            String id = Ids.newId();
            next(FunctionAggregate.class, id, new FunctionCreatedEvent(id, projectId, organisationId,
                    function.referenceId(), function.name(), function.code(), function.disabled(), by, at));
        }
    }

    // ---- flows with their states, intents and sentences

    private void flows(SnapshotContent snapshot, ProjectCapture.Captured current, Map<String, String> localeIds) {
        for (String flowId : current.flows.keySet()) {
            next(FlowAggregate.class, flowId, new FlowDeletedEvent(flowId, projectId, organisationId, by, at));
        }
        for (SnapshotContent.Flow flow : snapshot.flows()) {
            String flowId = Ids.newId();
            next(FlowAggregate.class, flowId, new FlowCreatedEvent(flowId, projectId, organisationId,
                    flow.referenceId(), flow.name(), flow.description(), by, at));
            Map<String, String> intentIds = new HashMap<>();
            flow.intents().forEach(i -> intentIds.put(i.referenceId(), Ids.newId()));
            for (SnapshotContent.Intent intent : parentsFirst(flow.intents())) {
                String intentId = intentIds.get(intent.referenceId());
                next(IntentAggregate.class, intentId, new IntentCreatedEvent(intentId, flowId, projectId,
                        organisationId, intent.referenceId(), intent.name(), intent.description(), intent.tags(),
                        intent.rejectIntent(), intent.disabled(),
                        intent.parentReference() == null ? null : intentIds.get(intent.parentReference()),
                        intent.condition(), intent.confirmationSentences(), intent.disambiguationSentence(),
                        intent.rules(), intent.data(), childFeatures(intent.childFeatures(), intentIds),
                        intent.biasTowardsParentOrChildIntents(), by, at));
                for (SnapshotContent.Sentence sentence : intent.sentences()) {
                    next(IntentAggregate.class, intentId, new SentenceCreatedEvent(Ids.newId(), intentId, flowId,
                            projectId, organisationId, localeIds.get(sentence.localeReference()), sentence.text(),
                            by, at));
                }
            }
            for (SnapshotContent.State state : flow.states()) {
                String stateId = Ids.newId();
                next(FlowAggregate.class, flowId, new StateCreatedEvent(flowId, projectId, organisationId, stateId,
                        state.referenceId(), state.name(), state.type(), state.isDefault(),
                        state.intentReferences().stream().map(intentIds::get).filter(Objects::nonNull).toList(),
                        by, at));
                if (state.isDefault()) {
                    next(FlowAggregate.class, flowId, new DefaultStateChangedEvent(flowId, projectId, organisationId,
                            null, stateId, by, at));
                }
            }
        }
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
        next(ProjectAggregate.class, projectId, payload);
    }

    private void next(Class<?> aggregate, String aggregateId, Object payload) {
        long sequence = lastSequence.merge(aggregateId, 0L, (last, zero) -> last + 1);
        events.add(new GenericDomainEventMessage<>(aggregate.getSimpleName(), aggregateId, sequence, payload));
    }
}
