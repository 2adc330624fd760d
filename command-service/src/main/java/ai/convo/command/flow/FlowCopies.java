package ai.convo.command.flow;

import ai.convo.command.snapshot.ProjectCapture;
import ai.convo.command.snapshot.ProjectCapture.FlowAsItStands;
import ai.convo.command.snapshot.ProjectCapture.FlowIntent;
import ai.convo.command.web.Absent;
import ai.convo.command.web.Clock;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.BatchOperations.Op;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.CreateFlowCommand;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.BatchSentencesCommand;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.IntentBias;
import ai.convo.contract.intent.IntentContent;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.intent.IntentPatch;
import ai.convo.contract.intent.SentenceId;
import ai.convo.contract.intent.SentenceOperation;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.state.CreateStateCommand;
import ai.convo.contract.state.StateId;
import ai.convo.contract.state.StateType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The official client's cloneFlow, planned: the flow as it stands (read from the event log like a snapshot's capture)
 * turned into the commands that make a copy of it in the same project, with new ids throughout: the flow, its
 * intents (parents first, then the children each one lists), their example sentences and its states. The caller
 * sends them together (one transaction), so the copy appears whole or not at all.
 */
@Component
class FlowCopies {

    /** The copy's commands in the order they must run, what each is (for a refusal), and the ids they write. */
    record Plan(String flowId, List<Object> commands, List<String> labels, List<String> aggregateIds) {
    }

    private static final int MAX_NAME = 200;

    private final ProjectCapture capture;
    private final FlowLookup flows;

    FlowCopies(ProjectCapture capture, FlowLookup flows) {
        this.capture = capture;
        this.flows = flows;
    }

    /** Throws 404 for a flow the actor cannot see. */
    Plan plan(String flowId, Actor actor) {
        FlowLookup.Flow visible = flows.requireVisible(flowId, actor);
        FlowAsItStands source = capture.flowOf(visible.projectId(), flowId)
                .orElseThrow(() -> Absent.of(FlowId.class, flowId));
        long at = Clock.nowSeconds();
        FlowId copy = FlowId.generate();
        List<Object> commands = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<String> ids = new ArrayList<>(List.of(copy.value()));
        String name = source.name() + " (copy)";
        commands.add(new CreateFlowCommand(copy, ProjectId.of(visible.projectId()), actor, UUID.randomUUID().toString(),
                name.length() > MAX_NAME ? source.name() : name, source.description(), at));
        labels.add("the flow");

        Map<String, FlowIntent> intents = new LinkedHashMap<>();
        source.intents().forEach(i -> intents.put(i.id(), i));
        Map<String, String> newIds = new LinkedHashMap<>();
        intents.keySet().forEach(id -> newIds.put(id, IntentId.generate().value()));
        Map<String, FlowIntent> placed = new LinkedHashMap<>();
        intents.values().forEach(i -> parentsFirst(i, intents, placed));
        List<FlowIntent> ordered = new ArrayList<>(placed.values());
        for (FlowIntent intent : ordered) {
            IntentCreatedEvent e = intent.content();
            String parent = e.parentIntentId() == null ? null : newIds.get(e.parentIntentId());
            boolean listsChildren = e.childFeatures() != null && e.childFeatures().intentIds() != null;
            IntentContent content = new IntentContent(e.name(), e.description(), e.tags(), e.rejectIntent(), e.disabled(),
                    parent == null ? null : IntentId.of(parent), e.condition(), e.confirmationSentences(),
                    e.disambiguationSentence(), e.rules(), e.data(),
                    listsChildren ? ChildFeatures.NONE : e.childFeatures() == null ? ChildFeatures.NONE : e.childFeatures(),
                    e.biasTowardsParentOrChildIntents() == null ? null
                            : IntentBias.fromCode(e.biasTowardsParentOrChildIntents()).orElse(null));
            String id = newIds.get(intent.id());
            commands.add(new CreateIntentCommand(IntentId.of(id), copy, actor, UUID.randomUUID().toString(), content, at));
            labels.add("intent " + intent.id());
            ids.add(id);
            if (intent.sentences().stream().anyMatch(s -> source.localeIds().contains(s.localeId()))) {
                List<SentenceOperation> sentences = intent.sentences().stream()
                        // a sentence of a locale deleted since is not part of the flow as it reads now
                        .filter(s -> source.localeIds().contains(s.localeId()))
                        .map(s -> new SentenceOperation(Op.CREATE, SentenceId.generate(), s.text(),
                                LocaleId.of(s.localeId())))
                        .toList();
                commands.add(new BatchSentencesCommand(IntentId.of(id), copy, actor, sentences, at));
                labels.add("the sentences of intent " + intent.id());
            }
        }
        // childFeatures naming intents: once all of the copy's intents exist
        for (FlowIntent intent : ordered) {
            ChildFeatures features = intent.content().childFeatures();
            if (features != null && features.intentIds() != null) {
                List<String> children = features.intentIds().stream().map(newIds::get).filter(Objects::nonNull).toList();
                commands.add(new UpdateIntentCommand(IntentId.of(newIds.get(intent.id())), copy, actor,
                        new IntentPatch(null, null, null, null, null, false, null, null, null, null, null, null,
                                ChildFeatures.of(children), false, null), null, at));
                labels.add("the childFeatures of intent " + intent.id());
            }
        }
        for (ProjectCapture.FlowState state : source.states()) {
            List<IntentId> named = state.intentIds() == null ? List.of() : state.intentIds().stream()
                    .map(newIds::get).filter(Objects::nonNull).map(IntentId::of).toList();
            commands.add(new CreateStateCommand(copy, StateId.generate(), actor, UUID.randomUUID().toString(),
                    state.name(), StateType.fromCode(state.type()).orElse(StateType.BLACKLIST), state.isDefault(), named,
                    at));
            labels.add("state " + state.name());
        }
        return new Plan(copy.value(), commands, labels, ids);
    }

    private static void parentsFirst(FlowIntent intent, Map<String, FlowIntent> intents,
                                     Map<String, FlowIntent> ordered) {
        if (ordered.containsKey(intent.id())) {
            return;
        }
        String parent = intent.content().parentIntentId();
        if (parent != null && intents.containsKey(parent)) {
            parentsFirst(intents.get(parent), intents, ordered);
        }
        ordered.put(intent.id(), intent);
    }
}
