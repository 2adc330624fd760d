package ai.convo.command.snapshot;

import ai.convo.command.web.Absent;
import ai.convo.command.flow.FlowLookup;
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
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The official client's cloneFlow, planned: the flow as it stands (read from the event log like a snapshot's capture)
 * turned into the commands that make a copy of it in the same project, with new ids throughout: the flow, its
 * intents (parents first, then the children each one lists), their example sentences and its states. The caller
 * sends them together (one transaction), so the copy appears whole or not at all.
 */
@Component
public class FlowCopies {

    /** The copy's commands in the order they must run, what each is (for a refusal), and the ids they write. */
    public record Plan(String flowId, List<Object> commands, List<String> labels, List<String> aggregateIds) {
    }

    private static final int MAX_NAME = 200;

    private final ProjectCapture capture;
    private final FlowLookup flows;
    private final TransactionTemplate consistentRead;

    FlowCopies(ProjectCapture capture, FlowLookup flows, PlatformTransactionManager transactions) {
        this.capture = capture;
        this.flows = flows;
        this.consistentRead = new TransactionTemplate(transactions);
        consistentRead.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        consistentRead.setReadOnly(true);
    }

    /** Throws 404 for a flow the actor cannot see. */
    public Plan plan(String flowId, Actor actor) {
        FlowLookup.Flow visible = flows.requireVisible(flowId, actor);
        ProjectCapture.Captured project = consistentRead.execute(status -> capture.capture(visible.projectId()));
        ProjectCapture.Flow source = project == null ? null : project.flows.get(flowId);
        if (source == null) {
            throw Absent.of(FlowId.class, flowId);
        }
        long at = Clock.nowSeconds();
        FlowId copy = FlowId.generate();
        List<Object> commands = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<String> ids = new ArrayList<>(List.of(copy.value()));
        String name = source.name + " (copy)";
        commands.add(new CreateFlowCommand(copy, ProjectId.of(visible.projectId()), actor, UUID.randomUUID().toString(),
                name.length() > MAX_NAME ? source.name : name, source.description, at));
        labels.add("the flow");

        Map<String, ProjectCapture.Intent> intents = new LinkedHashMap<>();
        project.intents.values().stream().filter(i -> i.flowId.equals(flowId)).forEach(i -> intents.put(i.id, i));
        Map<String, String> newIds = new LinkedHashMap<>();
        intents.keySet().forEach(id -> newIds.put(id, IntentId.generate().value()));
        java.util.LinkedHashSet<ProjectCapture.Intent> placed = new java.util.LinkedHashSet<>();
        intents.values().forEach(i -> parentsFirst(i, intents, placed));
        List<ProjectCapture.Intent> ordered = new ArrayList<>(placed);
        for (ProjectCapture.Intent intent : ordered) {
            IntentCreatedEvent e = intent.content;
            String parent = e.parentIntentId() == null ? null : newIds.get(e.parentIntentId());
            boolean listsChildren = e.childFeatures() != null && e.childFeatures().intentIds() != null;
            IntentContent content = new IntentContent(e.name(), e.description(), e.tags(), e.rejectIntent(), e.disabled(),
                    parent == null ? null : IntentId.of(parent), e.condition(), e.confirmationSentences(),
                    e.disambiguationSentence(), e.rules(), e.data(),
                    listsChildren ? ChildFeatures.NONE : e.childFeatures() == null ? ChildFeatures.NONE : e.childFeatures(),
                    e.biasTowardsParentOrChildIntents() == null ? null
                            : IntentBias.fromCode(e.biasTowardsParentOrChildIntents()).orElse(null));
            String id = newIds.get(intent.id);
            commands.add(new CreateIntentCommand(IntentId.of(id), copy, actor, UUID.randomUUID().toString(), content, at));
            labels.add("intent " + intent.id);
            ids.add(id);
            if (intent.sentences.values().stream().anyMatch(s -> project.locales.containsKey(s.localeReference()))) {
                List<SentenceOperation> sentences = intent.sentences.values().stream()
                        // a sentence of a locale deleted since is not part of the flow as it reads now
                        .filter(s -> project.locales.containsKey(s.localeReference()))
                        .map(s -> new SentenceOperation(Op.CREATE, SentenceId.generate(), s.text(),
                                LocaleId.of(s.localeReference())))
                        .toList();
                commands.add(new BatchSentencesCommand(IntentId.of(id), copy, actor, sentences, at));
                labels.add("the sentences of intent " + intent.id);
            }
        }
        // childFeatures naming intents: once all of the copy's intents exist
        for (ProjectCapture.Intent intent : ordered) {
            ChildFeatures features = intent.content.childFeatures();
            if (features != null && features.intentIds() != null) {
                List<String> children = features.intentIds().stream().map(newIds::get).filter(Objects::nonNull).toList();
                commands.add(new UpdateIntentCommand(IntentId.of(newIds.get(intent.id)), copy, actor,
                        new IntentPatch(null, null, null, null, null, false, null, null, null, null, null, null,
                                ChildFeatures.of(children), false, null), null, at));
                labels.add("the childFeatures of intent " + intent.id);
            }
        }
        for (ProjectCapture.State state : source.states.values()) {
            List<IntentId> named = state.intentIds() == null ? List.of() : state.intentIds().stream()
                    .map(newIds::get).filter(Objects::nonNull).map(IntentId::of).toList();
            commands.add(new CreateStateCommand(copy, StateId.generate(), actor, UUID.randomUUID().toString(),
                    state.name(), StateType.fromCode(state.type()).orElse(StateType.BLACKLIST), state.isDefault(), named,
                    at));
            labels.add("state " + state.name());
        }
        return new Plan(copy.value(), commands, labels, ids);
    }

    private static void parentsFirst(ProjectCapture.Intent intent, Map<String, ProjectCapture.Intent> intents,
                                     java.util.Set<ProjectCapture.Intent> ordered) {
        if (ordered.contains(intent)) {
            return;
        }
        String parent = intent.content.parentIntentId();
        if (parent != null && intents.containsKey(parent)) {
            parentsFirst(intents.get(parent), intents, ordered);
        }
        ordered.add(intent);
    }
}
