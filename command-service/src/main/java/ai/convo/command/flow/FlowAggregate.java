package ai.convo.command.flow;

import ai.convo.contract.flow.FlowId;
import ai.convo.command.web.Absent;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;
import static org.axonframework.modelling.command.AggregateLifecycle.markDeleted;

import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.project.ProjectLookup;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.BatchOperations;
import ai.convo.contract.common.BatchResult;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.CreateFlowCommand;
import ai.convo.contract.flow.DeleteFlowCommand;
import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowIntentsTrainedEvent;
import ai.convo.contract.flow.FlowPatch;
import ai.convo.contract.flow.FlowRecord;
import ai.convo.contract.flow.FlowSettingsUpdatedEvent;
import ai.convo.contract.flow.FlowUpdatedEvent;
import ai.convo.contract.flow.RecordIntentTrainingCommand;
import ai.convo.contract.flow.UpdateFlowCommand;
import ai.convo.contract.flow.UpdateFlowSettingsCommand;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.settings.Settings;
import ai.convo.contract.settings.SettingsRecord;
import ai.convo.contract.state.AddIntentToStateCommand;
import ai.convo.contract.state.BatchStatesCommand;
import ai.convo.contract.state.CreateStateCommand;
import ai.convo.contract.state.DefaultStateChangedEvent;
import ai.convo.contract.state.DeleteStateCommand;
import ai.convo.contract.state.RemoveDeletedIntentFromStatesCommand;
import ai.convo.contract.state.RemoveIntentFromStateCommand;
import ai.convo.contract.state.StateCreatedEvent;
import ai.convo.contract.state.StateDeletedEvent;
import ai.convo.contract.state.StateOperation;
import ai.convo.contract.state.StatePatch;
import ai.convo.contract.state.StateRecord;
import ai.convo.contract.state.StateUpdatedEvent;
import ai.convo.contract.state.UpdateStateCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A flow and its (deprecated) states. States live here, few per flow, so that "at most one default state",
 * "state names unique per flow" and the intents a state names are decided in one consistent place. Making a
 * state the default demotes the previous default in the same command (two events that commit together).
 * Set-based rules that need other aggregates' data come from injected write-side lookups: the project
 * ({@link ProjectLookup}), whether the flow is still visible ({@link FlowLookup}: its project may have been
 * deleted) and the flow's intents ({@link FlowIntents}).
 */
@Aggregate(cache = "aggregateCache", snapshotTriggerDefinition = "aggregateSnapshots", lockFactory = "aggregateLocks")
public class FlowAggregate {

    @AggregateIdentifier
    private String flowId;
    private String projectId;
    private String organisationId;
    private FlowRecord flow;
    private final Map<String, StateRecord> states = new LinkedHashMap<>();
    /** Settings a client set (dotted path to value); the rest are Settings.FLOW's defaults. */
    private final Map<String, Object> settings = new LinkedHashMap<>();
    /** Per locale of the project: inheritFallbackLocaleModel, for the locales a client set it for. */
    private final Map<String, Boolean> localeSettings = new LinkedHashMap<>();
    private long settingsChanged;
    private String settingsChangedBy;

    protected FlowAggregate() {
        // for Axon
    }

    // ---- flows

    @CommandHandler
    public FlowAggregate(CreateFlowCommand command, ProjectLookup projects) {
        Actor actor = command.actor();
        projects.requireVisible(command.projectId().value(), actor);
        apply(new FlowCreatedEvent(command.flowId().value(), command.projectId().value(), actor.organisationId(),
                command.referenceId(), command.name(), command.description() == null ? "" : command.description(),
                actor.userId(), command.at()));
    }

    @CommandHandler
    public FlowRecord handle(UpdateFlowCommand command, FlowLookup flows) {
        visibleTo(command.actor(), flows);
        inProject(command.inProject());
        FlowPatch patch = command.patch();
        List<String> changed = new ArrayList<>();
        String name = flow.name();
        if (patch.name() != null && !patch.name().equals(name)) {
            name = patch.name();
            changed.add("name");
        }
        String description = flow.description();
        if (patch.description() != null && !patch.description().equals(description)) {
            description = patch.description();
            changed.add("description");
        }
        if (changed.isEmpty()) {
            return flow;
        }
        apply(new FlowUpdatedEvent(flowId, projectId, organisationId, changed, name, description,
                command.actor().userId(), command.at()));
        return flow;
    }

    /**
     * Answers the settings as they are afterwards; values equal to the current ones are no change. A locale setting
     * names a locale of the flow's project.
     */
    @CommandHandler
    public SettingsRecord handle(UpdateFlowSettingsCommand command, FlowLookup flows, LocaleLookup locales) {
        visibleTo(command.actor(), flows);
        Map<String, Object> after = new LinkedHashMap<>(settings);
        after.putAll(command.changes());
        String crossed = Settings.thresholdProblem(Settings.FLOW, after);
        if (crossed != null) {
            throw DomainException.invalid("intentThreshold", crossed);
        }
        for (String localeId : command.localeSettings().keySet()) {
            if (!locales.projectOf(localeId).map(projectId::equals).orElse(false)) {
                throw DomainException.invalid("localeSettings.localeReference", "Locale " + localeId
                        + " is not a locale of this flow's project.");
            }
        }
        Map<String, Object> changed = new LinkedHashMap<>();
        command.changes().forEach((path, value) -> {
            if (!Objects.equals(value, Settings.FLOW.value(path, settings))) {
                changed.put(path, value);
            }
        });
        Map<String, Boolean> changedLocales = new LinkedHashMap<>();
        command.localeSettings().forEach((localeId, inherit) -> {
            if (!inherit.equals(localeSettings.get(localeId))) {
                changedLocales.put(localeId, inherit);
            }
        });
        if (!changed.isEmpty() || !changedLocales.isEmpty()) {
            apply(new FlowSettingsUpdatedEvent(flowId, projectId, organisationId, changed, changedLocales,
                    command.actor().userId(), command.at()));
        }
        return new SettingsRecord(flowId, new LinkedHashMap<>(settings), new LinkedHashMap<>(localeSettings),
                flow.createdAt(), flow.createdBy(), settingsChanged, settingsChangedBy);
    }

    @CommandHandler
    public void handle(DeleteFlowCommand command, FlowLookup flows) {
        visibleTo(command.actor(), flows);
        inProject(command.inProject());
        apply(new FlowDeletedEvent(flowId, projectId, organisationId, command.actor().userId(), command.at()));
    }

    /** A training task's result; the flow must still be there (a deleted flow's training records nothing). */
    @CommandHandler
    public void handle(RecordIntentTrainingCommand command, FlowLookup flows) {
        visibleTo(command.actor(), flows);
        apply(new FlowIntentsTrainedEvent(flowId, projectId, organisationId, command.localeId(), command.taskId(),
                command.mode(), command.modelId(), command.trainingSetHash(), command.position(), command.intents(),
                command.sentences(), command.accuracy(), command.fScore(), command.actor().userId(), command.at()));
    }

    // ---- states

    @CommandHandler
    public StateRecord handle(CreateStateCommand command, FlowLookup flows, FlowIntents intents) {
        visibleTo(command.actor(), flows);
        return createState(command, intents);
    }

    @CommandHandler
    public StateRecord handle(UpdateStateCommand command, FlowLookup flows, FlowIntents intents) {
        visibleTo(command.actor(), flows);
        return updateState(command, intents);
    }

    @CommandHandler
    public void handle(DeleteStateCommand command, FlowLookup flows) {
        visibleTo(command.actor(), flows);
        deleteState(command);
    }

    /** Each operation as its own command would do it, in order; one that fails fails the batch. */
    @CommandHandler
    public BatchResult handle(BatchStatesCommand command, FlowLookup flows, FlowIntents intents) {
        visibleTo(command.actor(), flows);
        return BatchOperations.run(command.operations(), StateOperation::op, StateOperation::stateId, o -> {
            switch (o.op()) {
                case CREATE -> createState(o.create(), intents);
                case UPDATE -> updateState(o.update(), intents);
                case DELETE -> deleteState(o.delete());
            }
        });
    }

    private StateRecord createState(CreateStateCommand command, FlowIntents intents) {
        String stateId = command.stateId().value();
        if (states.containsKey(stateId)) {
            throw DomainException.conflict("A state with id " + stateId + " already exists.");
        }
        List<String> intentIds = distinct(command.intentIds());
        requireIntentsOfThisFlow("intentIds", intentIds, intents);
        requireUniqueStateName(command.name(), null);
        String by = command.actor().userId();
        String previousDefault = defaultStateId();
        apply(new StateCreatedEvent(flowId, projectId, organisationId, stateId, command.referenceId(), command.name(),
                command.type().code(), command.isDefault(), intentIds, by, command.at()));
        if (command.isDefault()) {
            apply(new DefaultStateChangedEvent(flowId, projectId, organisationId, previousDefault, stateId, by,
                    command.at()));
        }
        return states.get(stateId);
    }

    private StateRecord updateState(UpdateStateCommand command, FlowIntents intents) {
        String stateId = command.stateId().value();
        StateRecord current = requireState(stateId);
        StatePatch patch = command.patch();
        List<String> changed = new ArrayList<>();

        String name = current.name();
        if (patch.name() != null && !patch.name().equals(name)) {
            requireUniqueStateName(patch.name(), stateId);
            name = patch.name();
            changed.add("name");
        }
        String type = current.type();
        if (patch.type() != null && !patch.type().code().equals(type)) {
            type = patch.type().code();
            changed.add("type");
        }
        List<String> intentIds = current.intentIds();
        if (patch.intentIds() != null) {
            List<String> wanted = distinct(patch.intentIds());
            if (!wanted.equals(intentIds)) {
                // Only newly named intents are checked: the ones the state already names were checked when added
                // (and a deleted intent leaves every state in the same transaction as its deletion).
                List<String> added = new ArrayList<>(wanted);
                added.removeAll(intentIds);
                requireIntentsOfThisFlow("intentIds", added, intents);
                intentIds = wanted;
                changed.add("intentIds");
            }
        }
        boolean isDefault = current.isDefault();
        boolean promote = false;
        if (patch.isDefault() != null && patch.isDefault() != isDefault) {
            isDefault = patch.isDefault();
            promote = isDefault;
            changed.add("isDefault");
        }
        if (changed.isEmpty()) {
            return current;
        }
        String by = command.actor().userId();
        String previousDefault = defaultStateId();
        apply(new StateUpdatedEvent(flowId, projectId, organisationId, stateId, changed, name, type, isDefault,
                intentIds, by, command.at()));
        if (promote) {
            apply(new DefaultStateChangedEvent(flowId, projectId, organisationId, previousDefault, stateId, by,
                    command.at()));
        }
        return states.get(stateId);
    }

    private void deleteState(DeleteStateCommand command) {
        String stateId = command.stateId().value();
        requireState(stateId);
        apply(new StateDeletedEvent(flowId, projectId, organisationId, stateId, command.actor().userId(),
                command.at()));
    }

    @CommandHandler
    public StateRecord handle(AddIntentToStateCommand command, FlowLookup flows, FlowIntents intents) {
        visibleTo(command.actor(), flows);
        String stateId = command.stateId().value();
        StateRecord current = requireState(stateId);
        String intentId = command.intentId().value();
        if (current.intentIds().contains(intentId)) {
            return current;
        }
        requireIntentsOfThisFlow("intentId", List.of(intentId), intents);
        List<String> intentIds = new ArrayList<>(current.intentIds());
        intentIds.add(intentId);
        apply(new StateUpdatedEvent(flowId, projectId, organisationId, stateId, List.of("intentIds"), current.name(),
                current.type(), current.isDefault(), intentIds, command.actor().userId(), command.at()));
        return states.get(stateId);
    }

    @CommandHandler
    public StateRecord handle(RemoveIntentFromStateCommand command, FlowLookup flows) {
        visibleTo(command.actor(), flows);
        String stateId = command.stateId().value();
        StateRecord current = requireState(stateId);
        String intentId = command.intentId().value();
        if (!current.intentIds().contains(intentId)) {
            return current;
        }
        apply(withoutIntent(current, intentId, command.actor().userId(), command.at()));
        return states.get(stateId);
    }

    /** The write side's own reaction to a deleted intent: no caller, no visibility check. */
    @CommandHandler
    public void handle(RemoveDeletedIntentFromStatesCommand command) {
        String intentId = command.intentId().value();
        List<StateRecord> naming = states.values().stream().filter(s -> s.intentIds().contains(intentId)).toList();
        for (StateRecord state : naming) {
            apply(withoutIntent(state, intentId, command.deletedBy(), command.deletedAt()));
        }
    }

    // ---- guard clauses

    /**
     * Another organisation's flow answers exactly as a missing one does; so does a flow whose project was deleted
     * (the flow lookup forgets the project's flows with it).
     */
    private void visibleTo(Actor actor, FlowLookup flows) {
        if (!organisationId.equals(actor.organisationId())) {
            throw Absent.of(FlowId.class, flowId);
        }
        flows.requireVisible(flowId, actor);
    }

    /** A batch of one project's flows names only flows of that project; another one answers as a missing one. */
    private void inProject(ProjectId expected) {
        if (expected != null && !expected.value().equals(projectId)) {
            throw Absent.of(FlowId.class, flowId);
        }
    }

    private StateRecord requireState(String stateId) {
        StateRecord state = states.get(stateId);
        if (state == null) {
            throw DomainException.notFound("State " + stateId + " does not exist in flow " + flowId + ".");
        }
        return state;
    }

    private void requireUniqueStateName(String name, String exceptStateId) {
        String wanted = name.toLowerCase(Locale.ROOT);
        for (StateRecord state : states.values()) {
            if (!state.id().equals(exceptStateId) && state.name().toLowerCase(Locale.ROOT).equals(wanted)) {
                throw DomainException.conflict("This flow already has a state named '" + state.name() + "' ("
                        + state.id() + "); state names are unique per flow, ignoring case.");
            }
        }
    }

    /** Every id must name an intent of this flow; the 400 names each one that does not, under {@code field}. */
    private void requireIntentsOfThisFlow(String field, List<String> intentIds, FlowIntents intents) {
        if (intentIds.isEmpty()) {
            return;
        }
        Set<String> known = intents.ofFlow(flowId, intentIds);
        List<String> unknown = intentIds.stream().filter(id -> !known.contains(id)).toList();
        if (!unknown.isEmpty()) {
            String detail = field + " names " + (unknown.size() == 1 ? "intent " : "intents ") + String.join(", ", unknown)
                    + (unknown.size() == 1 ? ", which is not an intent" : ", which are not intents") + " of flow "
                    + flowId + ". A state may only name intents of its own flow.";
            throw DomainException.invalid(field, detail);
        }
    }

    private String defaultStateId() {
        return states.values().stream().filter(StateRecord::isDefault).map(StateRecord::id).findFirst().orElse(null);
    }

    private static List<String> distinct(List<IntentId> ids) {
        Set<String> seen = new LinkedHashSet<>();
        ids.forEach(id -> seen.add(id.value()));
        return List.copyOf(seen);
    }

    private StateUpdatedEvent withoutIntent(StateRecord state, String intentId, String by, long at) {
        List<String> intentIds = new ArrayList<>(state.intentIds());
        intentIds.remove(intentId);
        return new StateUpdatedEvent(flowId, projectId, organisationId, state.id(), List.of("intentIds"), state.name(),
                state.type(), state.isDefault(), intentIds, by, at);
    }

    // ---- state (event sourcing handlers only assign)

    @EventSourcingHandler
    void on(FlowCreatedEvent event) {
        flowId = event.flowId();
        projectId = event.projectId();
        organisationId = event.organisationId();
        flow = new FlowRecord(event.flowId(), event.name(), event.description(), event.referenceId(),
                event.projectId(), event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy());
        settingsChanged = event.createdAt();
        settingsChangedBy = event.createdBy();
    }

    @EventSourcingHandler
    void on(FlowSettingsUpdatedEvent event) {
        settings.putAll(event.changed());
        localeSettings.putAll(event.localeSettings());
        settingsChanged = event.changedAt();
        settingsChangedBy = event.changedBy();
    }

    @EventSourcingHandler
    void on(FlowUpdatedEvent event) {
        flow = new FlowRecord(flow.id(), event.name(), event.description(), flow.referenceId(), flow.projectReference(),
                flow.createdAt(), event.changedAt(), flow.createdBy(), event.changedBy());
    }

    @EventSourcingHandler
    void on(FlowDeletedEvent event) {
        markDeleted();
    }

    @EventSourcingHandler
    void on(StateCreatedEvent event) {
        states.put(event.stateId(), new StateRecord(event.stateId(), event.name(), event.referenceId(), event.isDefault(),
                event.type(), event.intentIds(), event.createdAt(), event.createdAt(), event.createdBy(),
                event.createdBy()));
    }

    @EventSourcingHandler
    void on(StateUpdatedEvent event) {
        StateRecord old = states.get(event.stateId());
        states.put(event.stateId(), new StateRecord(old.id(), event.name(), old.referenceId(), event.isDefault(),
                event.type(), event.intentIds(), old.createdAt(), event.changedAt(), old.createdBy(), event.changedBy()));
    }

    @EventSourcingHandler
    void on(DefaultStateChangedEvent event) {
        StateRecord previous = event.previousDefaultStateId() == null ? null : states.get(event.previousDefaultStateId());
        if (previous != null && !previous.id().equals(event.defaultStateId())) {
            states.put(previous.id(), new StateRecord(previous.id(), previous.name(), previous.referenceId(), false,
                    previous.type(), previous.intentIds(), previous.createdAt(), event.changedAt(), previous.createdBy(),
                    event.changedBy()));
        }
    }

    @EventSourcingHandler
    void on(StateDeletedEvent event) {
        states.remove(event.stateId());
    }
}
