package ai.convo.command.yesno;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.yesno.CreateYesNoSentenceCommand;
import ai.convo.contract.yesno.DeleteYesNoIntentCommand;
import ai.convo.contract.yesno.DeleteYesNoSentenceCommand;
import ai.convo.contract.yesno.RecordYesNoTrainingCommand;
import ai.convo.contract.yesno.UpdateYesNoIntentCommand;
import ai.convo.contract.yesno.UpdateYesNoSentenceCommand;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoIntentRecord;
import ai.convo.contract.yesno.YesNoIntentResetEvent;
import ai.convo.contract.yesno.YesNoIntentSeededEvent;
import ai.convo.contract.yesno.YesNoIntentUpdatedEvent;
import ai.convo.contract.yesno.YesNoIntentsTrainedEvent;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoSentence;
import ai.convo.contract.yesno.YesNoSentenceCreatedEvent;
import ai.convo.contract.yesno.YesNoSentenceDeletedEvent;
import ai.convo.contract.yesno.YesNoSentenceUpdatedEvent;
import ai.convo.contract.yesno.YesNoTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A locale's yes, no or reject intent. A locale has all three from its creation, so none is created by a request:
 * the first write seeds it with the built-in sentences of the locale's language ({@link YesNoSeeds}), then applies
 * the change. The controller has checked that the locale is the caller's; the organisation is checked again here.
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
class YesNoIntentAggregate {

    @AggregateIdentifier
    private String yesNoIntentId;
    private String organisationId;
    private String localeId;
    private String projectId;
    private YesNoKind kind;
    private List<String> rules = new ArrayList<>();
    private boolean disabled;
    private final Map<String, String> sentences = new LinkedHashMap<>();

    protected YesNoIntentAggregate() {
        // for Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    YesNoIntentRecord handle(UpdateYesNoIntentCommand command) {
        seedIfNew(command.yesNoIntentId(), command.target(), command.actor(), command.at());
        List<String> newRules = command.rules() == null ? rules : List.copyOf(command.rules());
        boolean newDisabled = command.disabled() == null ? disabled : command.disabled();
        if (!newRules.equals(rules) || newDisabled != disabled) {
            apply(new YesNoIntentUpdatedEvent(yesNoIntentId, localeId, projectId, organisationId, newRules,
                    newDisabled, command.actor().userId(), command.at()));
        }
        return record();
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(DeleteYesNoIntentCommand command) {
        seedIfNew(command.yesNoIntentId(), command.target(), command.actor(), command.at());
        String language = command.target().nluLanguage();
        apply(new YesNoIntentResetEvent(yesNoIntentId, localeId, projectId, organisationId, language,
                YesNoSeeds.sentences(YesNoIntentId.of(yesNoIntentId), kind, language), command.actor().userId(),
                command.at()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    YesNoSentence handle(CreateYesNoSentenceCommand command) {
        seedIfNew(command.yesNoIntentId(), command.target(), command.actor(), command.at());
        if (sentences.size() >= YesNoIntentRecord.MAX_SENTENCES) {
            throw DomainException.conflict("The " + kind.wire() + " intent of locale " + localeId + " already has "
                    + YesNoIntentRecord.MAX_SENTENCES + " sentences, the most it may have; delete some first.");
        }
        apply(new YesNoSentenceCreatedEvent(yesNoIntentId, command.sentenceId(), localeId, projectId, organisationId,
                command.text(), command.actor().userId(), command.at()));
        return new YesNoSentence(command.sentenceId(), command.text());
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    YesNoSentence handle(UpdateYesNoSentenceCommand command) {
        seedIfNew(command.yesNoIntentId(), command.target(), command.actor(), command.at());
        requireSentence(command.sentenceId());
        if (!command.text().equals(sentences.get(command.sentenceId()))) {
            apply(new YesNoSentenceUpdatedEvent(yesNoIntentId, command.sentenceId(), localeId, projectId,
                    organisationId, command.text(), command.actor().userId(), command.at()));
        }
        return new YesNoSentence(command.sentenceId(), command.text());
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(DeleteYesNoSentenceCommand command) {
        seedIfNew(command.yesNoIntentId(), command.target(), command.actor(), command.at());
        requireSentence(command.sentenceId());
        apply(new YesNoSentenceDeletedEvent(yesNoIntentId, command.sentenceId(), localeId, projectId, organisationId,
                command.actor().userId(), command.at()));
    }

    /** The locale's trained model, recorded by the trainYesNoIntents task; sent to the locale's yes intent. */
    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RecordYesNoTrainingCommand command) {
        seedIfNew(command.yesNoIntentId(), command.target(), command.actor(), command.at());
        apply(new YesNoIntentsTrainedEvent(yesNoIntentId, localeId, projectId, organisationId, command.taskId(),
                command.modelId(), command.trainingSetHash(), command.position(), command.sentences(),
                command.actor().userId(), command.at()));
    }

    // ---- guard clauses

    /** A new intent is seeded first; an existing one must be the caller's organisation's and this locale's. */
    private void seedIfNew(YesNoIntentId id, YesNoTarget target, Actor actor, long at) {
        if (yesNoIntentId == null) {
            apply(new YesNoIntentSeededEvent(id.value(), target.localeId(), target.projectId(), actor.organisationId(),
                    target.kind().wire(), target.nluLanguage(), YesNoSeeds.sentences(id, target.kind(),
                    target.nluLanguage()), actor.userId(), at));
            return;
        }
        if (!organisationId.equals(actor.organisationId()) || !localeId.equals(target.localeId())) {
            throw DomainException.notFound("Intent " + id.value() + " is not a yes/no intent of locale "
                    + target.localeId() + ".");
        }
    }

    private void requireSentence(String sentenceId) {
        if (!sentences.containsKey(sentenceId)) {
            throw DomainException.notFound("Sentence " + sentenceId + " does not exist in the " + kind.wire()
                    + " intent of locale " + localeId + ".");
        }
    }

    private YesNoIntentRecord record() {
        return new YesNoIntentRecord(yesNoIntentId, kind, rules, disabled);
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(YesNoIntentSeededEvent event) {
        yesNoIntentId = event.yesNoIntentId();
        organisationId = event.organisationId();
        localeId = event.localeId();
        projectId = event.projectId();
        kind = YesNoKind.parse(event.kind()).orElseThrow();
        event.sentences().forEach(s -> sentences.put(s.sentenceId(), s.text()));
    }

    @EventSourcingHandler
    void on(YesNoIntentUpdatedEvent event) {
        rules = new ArrayList<>(event.rules());
        disabled = event.disabled();
    }

    @EventSourcingHandler
    void on(YesNoIntentResetEvent event) {
        rules = new ArrayList<>();
        disabled = false;
        sentences.clear();
        event.sentences().forEach(s -> sentences.put(s.sentenceId(), s.text()));
    }

    @EventSourcingHandler
    void on(YesNoSentenceCreatedEvent event) {
        sentences.put(event.sentenceId(), event.text());
    }

    @EventSourcingHandler
    void on(YesNoSentenceUpdatedEvent event) {
        sentences.put(event.sentenceId(), event.text());
    }

    @EventSourcingHandler
    void on(YesNoSentenceDeletedEvent event) {
        sentences.remove(event.sentenceId());
    }
}
