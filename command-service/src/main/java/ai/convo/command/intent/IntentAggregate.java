package ai.convo.command.intent;

import ai.convo.contract.intent.IntentId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.command.flow.FlowLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.BatchOperations;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.AddIntentLocalizationCommand;
import ai.convo.contract.intent.BatchSentencesCommand;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.CreateSentenceCommand;
import ai.convo.contract.intent.DeleteIntentCommand;
import ai.convo.contract.intent.DeleteSentenceCommand;
import ai.convo.contract.intent.DetachIntentFromParentCommand;
import ai.convo.contract.intent.IntentContent;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentPatch;
import ai.convo.contract.intent.IntentRecord;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.RemoveIntentLocalizationCommand;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.intent.SentenceOperation;
import ai.convo.contract.intent.SentenceRecord;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.intent.UpdateSentenceCommand;
import ai.convo.contract.locale.LocaleId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * An intent of a flow with its example sentences (tens per intent, so they live here). The rules that span
 * several intents (a name unique in the flow ignoring case, a parent of the same flow, no cycle) are decided
 * here with the {@link IntentDirectory}; commands that change names or the tree of one flow are serialized
 * by {@link IntentFlowLock}, so the directory never misses a concurrent change.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class IntentAggregate {

    /** An intent holds at most this many example sentences. */
    static final int MAX_SENTENCES = 1000;

    @AggregateIdentifier
    private String intentId;
    private String flowId;
    private String projectId;
    private String organisationId;
    private IntentRecord current;
    /** The sentences by id; a sentence's localeReference is the locale it is written in. */
    private final Map<String, SentenceRecord> sentences = new LinkedHashMap<>();

    protected IntentAggregate() {
        // for Axon
    }

    @CommandHandler
    public IntentAggregate(CreateIntentCommand command, IntentDirectory directory) {
        Actor actor = command.actor();
        FlowLookup.Flow flow = directory.requireVisibleFlow(command.flowId().value(), actor);
        String id = command.intentId().value();
        IntentContent content = command.content();
        requireUniqueName(directory, flow.flowId(), content.name(), id);
        String parent = content.parentIntentId() == null ? null : content.parentIntentId().value();
        if (parent != null) {
            requireValidParent(directory, flow.flowId(), id, parent);
        }
        requireChildrenOfFlow(directory, flow.flowId(), content.childFeatures());
        apply(new IntentCreatedEvent(id, flow.flowId(), flow.projectId(), flow.organisationId(), command.referenceId(),
                content.name(), content.description(), content.tags(), content.rejectIntent(), content.disabled(),
                parent, content.condition(), content.confirmationSentences(), content.disambiguationSentence(),
                content.rules(), content.data(), content.childFeatures(),
                content.bias() == null ? null : content.bias().code(), actor.userId(), command.at()));
    }

    @CommandHandler
    public IntentResult handle(UpdateIntentCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        if (command.localeId() != null) {
            requireLocaleOfThisProject(directory, "localeId", command.localeId().value());
        }
        IntentPatch patch = command.patch();
        IntentRecord was = current;
        List<String> changed = new ArrayList<>();

        String name = was.name();
        if (patch.name() != null && !patch.name().equals(name)) {
            requireUniqueName(directory, flowId, patch.name(), intentId);
            name = patch.name();
            changed.add("name");
        }
        String parent = was.parentIntentId();
        if (patch.parentPresent()) {
            String wanted = patch.parentIntentId() == null ? null : patch.parentIntentId().value();
            if (!Objects.equals(wanted, parent)) {
                if (wanted != null) {
                    requireValidParent(directory, flowId, intentId, wanted);
                }
                parent = wanted;
                changed.add("parentIntentId");
            }
        }
        String description = pick(patch.description(), was.description(), "description", changed);
        List<String> tags = pick(patch.tags(), was.tags(), "tags", changed);
        boolean reject = pick(patch.rejectIntent(), was.rejectIntent(), "isRejectIntent", changed);
        boolean disabled = pick(patch.disabled(), was.disabled(), "isDisabled", changed);
        String condition = pick(patch.condition(), was.condition(), "condition", changed);
        List<String> confirmations = pick(patch.confirmationSentences(), was.confirmationSentences(),
                "confirmationSentences", changed);
        String disambiguation = pick(patch.disambiguationSentence(), was.disambiguationSentence(),
                "disambiguationSentence", changed);
        List<String> rules = pick(patch.rules(), was.rules(), "rules", changed);
        Map<String, Object> data = pick(patch.data(), was.data(), "data", changed);
        if (patch.childFeatures() != null) {
            requireChildrenOfFlow(directory, flowId, patch.childFeatures());
        }
        ChildFeatures childFeatures = pick(patch.childFeatures(), was.childFeatures(), "childFeatures", changed);
        String bias = was.biasTowardsParentOrChildIntents();
        if (patch.biasPresent()) {
            String wanted = patch.bias() == null ? null : patch.bias().code();
            if (!Objects.equals(wanted, bias)) {
                bias = wanted;
                changed.add("biasTowardsParentOrChildIntents");
            }
        }
        if (!changed.isEmpty()) {
            apply(new IntentUpdatedEvent(intentId, flowId, projectId, organisationId, changed, name, description, tags,
                    reject, disabled, parent, condition, confirmations, disambiguation, rules, data, childFeatures, bias,
                    command.actor().userId(), command.at()));
        }
        return result();
    }

    @CommandHandler
    public void handle(DeleteIntentCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        apply(new IntentDeletedEvent(intentId, flowId, projectId, organisationId, command.actor().userId(), command.at()));
    }

    /** Sent for each child when its parent is deleted: the child becomes a root intent. */
    @CommandHandler
    public void handle(DetachIntentFromParentCommand command) {
        if (!command.deletedParentId().value().equals(current.parentIntentId())) {
            return;
        }
        IntentRecord was = current;
        apply(new IntentUpdatedEvent(intentId, flowId, projectId, organisationId, List.of("parentIntentId"), was.name(),
                was.description(), was.tags(), was.rejectIntent(), was.disabled(), null, was.condition(),
                was.confirmationSentences(), was.disambiguationSentence(), was.rules(), was.data(), was.childFeatures(),
                was.biasTowardsParentOrChildIntents(), command.changedBy(), command.at()));
    }

    // ---- sentences

    @CommandHandler
    public SentenceRecord handle(CreateSentenceCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        return createSentence(command.sentenceId().value(), command.text(), command.localeId().value(), directory,
                command.actor(), command.at());
    }

    @CommandHandler
    public SentenceRecord handle(UpdateSentenceCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        return updateSentence(command.sentenceId().value(), command.text(), command.localeReference(), command.actor(),
                command.at());
    }

    @CommandHandler
    public void handle(DeleteSentenceCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        deleteSentence(command.sentenceId().value(), command.actor(), command.at());
    }

    /** Each operation as its own command would do it, in order; one that fails fails the batch. */
    @CommandHandler
    public BatchResult handle(BatchSentencesCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        return BatchOperations.run(command.operations(), SentenceOperation::op, o -> o.sentenceId().value(), o -> {
            switch (o.op()) {
                case CREATE -> createSentence(o.sentenceId().value(), o.text(), o.localeId().value(), directory,
                        command.actor(), command.at());
                case UPDATE -> updateSentence(o.sentenceId().value(), o.text(), o.localeId(), command.actor(), command.at());
                case DELETE -> deleteSentence(o.sentenceId().value(), command.actor(), command.at());
            }
        });
    }

    /** Copies the sentences of inheritFromLocaleId the intent lacks in localeId; answers how many were added. */
    @CommandHandler
    public Integer handle(AddIntentLocalizationCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        String localeId = command.localeId().value();
        requireLocaleOfThisProject(directory, "localeId", localeId);
        if (command.inheritFromLocaleId() == null) {
            return 0;
        }
        String from = command.inheritFromLocaleId().value();
        requireLocaleOfThisProject(directory, "inheritFromLocaleId", from);
        if (from.equals(localeId)) {
            throw DomainException.invalid("inheritFromLocaleId", "inheritFromLocaleId must be another locale than "
                    + "localeId (" + localeId + ").");
        }
        java.util.Set<String> present = new java.util.HashSet<>();
        List<SentenceRecord> inherited = new ArrayList<>();
        for (SentenceRecord sentence : sentences.values()) {
            if (sentence.localeReference().equals(localeId)) {
                present.add(sentence.text());
            } else if (sentence.localeReference().equals(from)) {
                inherited.add(sentence);
            }
        }
        int added = 0;
        for (SentenceRecord sentence : inherited) {
            if (present.add(sentence.text())) {
                createSentence(ai.convo.contract.common.Ids.newId(), sentence.text(), localeId, directory,
                        command.actor(), command.at());
                added++;
            }
        }
        return added;
    }

    /** Deletes the intent's sentences of the locale; answers how many there were. */
    @CommandHandler
    public Integer handle(RemoveIntentLocalizationCommand command, IntentDirectory directory) {
        visibleTo(command.flowId(), command.actor(), directory);
        String localeId = command.localeId().value();
        requireLocaleOfThisProject(directory, "localeId", localeId);
        List<String> ofLocale = sentences.values().stream().filter(s -> s.localeReference().equals(localeId))
                .map(SentenceRecord::id).toList();
        ofLocale.forEach(id -> deleteSentence(id, command.actor(), command.at()));
        return ofLocale.size();
    }

    private SentenceRecord createSentence(String sentenceId, String text, String localeId, IntentDirectory directory,
                                          Actor actor, long at) {
        if (sentences.containsKey(sentenceId)) {
            throw DomainException.conflict("A sentence with id " + sentenceId + " already exists.");
        }
        if (sentences.size() >= MAX_SENTENCES) {
            throw DomainException.conflict("Intent " + intentId + " already has " + MAX_SENTENCES
                    + " example sentences, the most an intent can hold; delete some first.");
        }
        requireLocaleOfThisProject(directory, "localeId", localeId);
        apply(new SentenceCreatedEvent(sentenceId, intentId, flowId, projectId, organisationId, localeId, text,
                actor.userId(), at));
        return sentences.get(sentenceId);
    }

    private SentenceRecord updateSentence(String sentenceId, String text, LocaleId localeReference, Actor actor, long at) {
        SentenceRecord sentence = requireSentence(sentenceId);
        // A sentence is written in one language: the PATCH may name its locale, never move it to another.
        if (localeReference != null && !localeReference.value().equals(sentence.localeReference())) {
            throw DomainException.invalid("localeReference", "localeReference " + localeReference.value()
                    + " is not the locale of sentence " + sentence.id() + " (" + sentence.localeReference()
                    + "); a sentence cannot move to another locale: create it in that locale instead.");
        }
        if (text == null || text.equals(sentence.text())) {
            return sentence;
        }
        apply(new SentenceUpdatedEvent(sentence.id(), intentId, flowId, projectId, organisationId,
                sentence.localeReference(), List.of("text"), text, actor.userId(), at));
        return sentences.get(sentence.id());
    }

    private void deleteSentence(String sentenceId, Actor actor, long at) {
        SentenceRecord sentence = requireSentence(sentenceId);
        apply(new SentenceDeletedEvent(sentence.id(), intentId, flowId, projectId, organisationId,
                sentence.localeReference(), actor.userId(), at));
    }

    // ---- guard clauses

    /**
     * Another organisation's intent, and an intent addressed under another flow, answer exactly as a missing
     * one does; an intent of a deleted flow is gone with it.
     */
    private void visibleTo(FlowId pathFlow, Actor actor, IntentDirectory directory) {
        if (!organisationId.equals(actor.organisationId()) || !flowId.equals(pathFlow.value())) {
            throw Absent.of(IntentId.class, intentId);
        }
        directory.requireVisibleFlow(flowId, actor);
    }

    private static void requireUniqueName(IntentDirectory directory, String flowId, String name, String exceptIntentId) {
        directory.intentNamed(flowId, name)
                .filter(existing -> !existing.intentId().equals(exceptIntentId))
                .ifPresent(existing -> {
                    throw DomainException.conflict("This flow already has an intent named '" + existing.name() + "' ("
                            + existing.intentId() + "); intent names are unique per flow, ignoring case.",
                            Map.of("name", name, "conflictsWith", existing.intentId()));
                });
    }

    /** The parent must be another intent of the same flow, and must not lead back to this intent. */
    private static void requireValidParent(IntentDirectory directory, String flowId, String intentId, String parent) {
        if (parent.equals(intentId)) {
            throw DomainException.invalid("parentIntentId", "An intent cannot be its own parent.");
        }
        boolean inFlow = directory.intent(parent).map(p -> p.flowId().equals(flowId)).orElse(false);
        if (!inFlow) {
            throw DomainException.invalid("parentIntentId", "parentIntentId " + parent
                    + " is not an intent of flow " + flowId + ".");
        }
        List<String> path = new ArrayList<>(List.of(intentId, parent));
        for (String ancestor : directory.ancestorsOf(parent)) {
            path.add(ancestor);
            if (ancestor.equals(intentId)) {
                throw DomainException.conflict("Parents would form a cycle: " + String.join(" -> ", path)
                        + ". Choose a parent that is not a descendant of this intent.", Map.of("cycle", path));
            }
        }
    }

    /**
     * The intents childFeatures lists must be intents of this flow: one of another flow or organisation is refused in
     * the words of one that does not exist.
     */
    private static void requireChildrenOfFlow(IntentDirectory directory, String flowId, ChildFeatures features) {
        if (features == null || features.intentIds() == null) {
            return;
        }
        for (String child : features.intentIds()) {
            if (!directory.intent(child).map(entry -> entry.flowId().equals(flowId)).orElse(false)) {
                throw DomainException.invalid("childFeatures", "childFeatures names " + child
                        + ", which is not an intent of flow " + flowId + ".");
            }
        }
    }

    private void requireLocaleOfThisProject(IntentDirectory directory, String field, String localeId) {
        if (!directory.projectOfLocale(localeId).map(projectId::equals).orElse(false)) {
            throw DomainException.invalid(field, field + " " + localeId + " is not a locale of this flow's project ("
                    + projectId + ").");
        }
    }

    private SentenceRecord requireSentence(String sentenceId) {
        SentenceRecord sentence = sentences.get(sentenceId);
        if (sentence == null) {
            throw DomainException.notFound("Sentence " + sentenceId + " does not exist in intent " + intentId + ".");
        }
        return sentence;
    }

    private static <T> T pick(T wanted, T was, String field, List<String> changed) {
        if (wanted == null || wanted.equals(was)) {
            return was;
        }
        changed.add(field);
        return wanted;
    }

    private IntentResult result() {
        Map<String, Long> perLocale = new TreeMap<>();
        sentences.values().forEach(s -> perLocale.merge(s.localeReference(), 1L, Long::sum));
        return new IntentResult(current, projectId, perLocale);
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(IntentCreatedEvent event) {
        intentId = event.intentId();
        flowId = event.flowId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        current = new IntentRecord(event.intentId(), event.referenceId(), event.name(), event.description(), event.tags(),
                event.rejectIntent(), event.disabled(), event.parentIntentId(), event.condition(),
                event.confirmationSentences(), event.disambiguationSentence(), event.rules(), event.data(),
                event.childFeatures(), event.biasTowardsParentOrChildIntents(), event.createdAt(), event.createdAt(),
                event.createdBy(), event.createdBy());
    }

    @EventSourcingHandler
    void on(IntentUpdatedEvent event) {
        IntentRecord was = current;
        current = new IntentRecord(was.id(), was.referenceId(), event.name(), event.description(), event.tags(),
                event.rejectIntent(), event.disabled(), event.parentIntentId(), event.condition(),
                event.confirmationSentences(), event.disambiguationSentence(), event.rules(), event.data(),
                event.childFeatures(), event.biasTowardsParentOrChildIntents(), was.createdAt(), event.changedAt(),
                was.createdBy(), event.changedBy());
    }

    @EventSourcingHandler
    void on(IntentDeletedEvent event) {
        markDeleted();
    }

    @EventSourcingHandler
    void on(SentenceCreatedEvent event) {
        sentences.put(event.sentenceId(), new SentenceRecord(event.sentenceId(), event.text(), event.localeId(),
                event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy()));
    }

    @EventSourcingHandler
    void on(SentenceUpdatedEvent event) {
        SentenceRecord was = sentences.get(event.sentenceId());
        sentences.put(event.sentenceId(), new SentenceRecord(was.id(), event.text(), event.localeId(),
                was.createdAt(), event.changedAt(), was.createdBy(), event.changedBy()));
    }

    @EventSourcingHandler
    void on(SentenceDeletedEvent event) {
        sentences.remove(event.sentenceId());
    }
}
