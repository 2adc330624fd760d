package ai.convo.command.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.command.snapshot.ProjectCapture.FlowIntent;
import ai.convo.command.snapshot.ProjectCapture.FlowSentence;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.BatchOperations;
import ai.convo.contract.identity.Role;
import ai.convo.contract.intent.BatchSentencesCommand;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.intent.UpdateIntentCommand;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IntentImportPlanTest {

    private static final String FLOW = IntentId.generate().value();
    private static final String LOCALE = IntentId.generate().value();
    private static final String OTHER_LOCALE = IntentId.generate().value();
    private static final Actor ACTOR = new Actor(IntentId.generate().value(), IntentId.generate().value(), Role.SYSTEM_ADMIN);

    private static FlowIntent existing(String name, List<String> rules, FlowSentence... sentences) {
        String id = IntentId.generate().value();
        return new FlowIntent(id, new IntentCreatedEvent(id, FLOW, "p", "o", "ref", name, "", List.of(), false, false,
                null, "", List.of(), "", rules, Map.of(), ChildFeatures.NONE, null, "u", 1), List.of(sentences));
    }

    private static FlowSentence sentence(String locale, String text) {
        return new FlowSentence(IntentId.generate().value(), locale, text);
    }

    private static IntentImportPlan.Plan plan(List<IntentFile.Entry> entries, List<FlowIntent> flow, String mode) {
        return IntentImportPlan.build(entries, flow, FLOW, LOCALE, mode, ACTOR, 1);
    }

    private static List<String> names(List<Object> commands) {
        return commands.stream().filter(CreateIntentCommand.class::isInstance)
                .map(c -> ((CreateIntentCommand) c).content().name()).toList();
    }

    @Test
    void givenChildrenBeforeTheirParentsInTheFile_whenPlanned_thenParentsAreCreatedFirstAndLinkedById() {
        List<IntentFile.Entry> entries = IntentFile.read(("[{\"name\":\"Grandchild\",\"parentIntentName\":\"Child\"},"
                + "{\"name\":\"Child\",\"parentIntentName\":\"Root\",\"childFeatures\":[\"Grandchild\"]},"
                + "{\"name\":\"Root\"}]").getBytes());
        IntentImportPlan.Plan plan = plan(entries, List.of(), "skip");
        assertThat(names(plan.commands())).containsExactly("Root", "Child", "Grandchild");
        CreateIntentCommand root = (CreateIntentCommand) plan.commands().get(0);
        CreateIntentCommand child = (CreateIntentCommand) plan.commands().get(1);
        CreateIntentCommand grandchild = (CreateIntentCommand) plan.commands().get(2);
        assertThat(child.content().parentIntentId()).isEqualTo(root.intentId());
        assertThat(grandchild.content().parentIntentId()).isEqualTo(child.intentId());
        // childFeatures may name only intents that exist: the grandchild's id is set once it is created
        assertThat(child.content().childFeatures()).isEqualTo(ChildFeatures.NONE);
        UpdateIntentCommand linked = (UpdateIntentCommand) plan.commands().get(plan.commands().size() - 1);
        assertThat(linked.intentId()).isEqualTo(child.intentId());
        assertThat(linked.patch().childFeatures().intentIds()).containsExactly(grandchild.intentId().value());
        assertThat(plan.created()).isEqualTo(3);
    }

    @Test
    void givenAnIntentTheFlowHas_whenPlannedInEachMode_thenSkipSendsNothingOverwriteReplacesLocaleMergeAdds() {
        FlowIntent a = existing("A", List.of("r1"), sentence(LOCALE, "one"), sentence(OTHER_LOCALE, "eins"),
                sentence(LOCALE, "two"));
        List<IntentFile.Entry> file = IntentFile.read("a,exampleSentence,two\na,exampleSentence,three\na,rules,r2\n"
                .getBytes());

        assertThat(plan(file, List.of(a), "skip").commands()).isEmpty();

        IntentImportPlan.Plan overwrite = plan(file, List.of(a), "overwrite");
        UpdateIntentCommand update = (UpdateIntentCommand) overwrite.commands().get(0);
        assertThat(update.intentId().value()).isEqualTo(a.id());
        assertThat(update.patch().name()).isEqualTo("a");
        assertThat(update.patch().rules()).containsExactly("r2");
        BatchSentencesCommand replaced = (BatchSentencesCommand) overwrite.commands().get(1);
        assertThat(replaced.operations()).extracting(o -> o.op() + ":" + (o.text() == null ? o.sentenceId().value() : o.text()))
                .containsExactly("DELETE:" + a.sentences().get(0).id(), "DELETE:" + a.sentences().get(2).id(),
                        "CREATE:two", "CREATE:three");

        IntentImportPlan.Plan merge = plan(file, List.of(a), "merge");
        assertThat(((UpdateIntentCommand) merge.commands().get(0)).patch().rules()).containsExactly("r1", "r2");
        assertThat(((UpdateIntentCommand) merge.commands().get(0)).patch().name()).isNull();
        assertThat(((BatchSentencesCommand) merge.commands().get(1)).operations())
                .extracting(o -> o.op() + ":" + o.text()).containsExactly(BatchOperations.Op.CREATE + ":three");
    }

    @Test
    void givenLinksToNoIntentOrACycle_whenPlanned_then400() {
        assertThatThrownBy(() -> plan(IntentFile.read("[{\"name\":\"A\",\"childFeatures\":[\"Z\"]}]".getBytes()),
                List.of(), "skip")).hasMessageContaining("'Z'");
        assertThatThrownBy(() -> plan(IntentFile.read(("[{\"name\":\"A\",\"parentIntentName\":\"B\"},"
                + "{\"name\":\"B\",\"parentIntentName\":\"C\"},{\"name\":\"C\",\"parentIntentName\":\"A\"}]").getBytes()),
                List.of(), "skip")).hasMessageContaining("cycle: A -> B -> C -> A");
        // a parent the flow has is fine
        assertThat(plan(IntentFile.read("[{\"name\":\"A\",\"parentIntentName\":\"existing\"}]".getBytes()),
                List.of(existing("Existing", List.of())), "skip").created()).isEqualTo(1);
    }

    @Test
    void givenAMergeBeyondTheLimits_whenPlanned_then400SayingSo() {
        FlowIntent a = existing("A", List.of("r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
                "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20"));
        assertThatThrownBy(() -> plan(IntentFile.read("A,rules,new\n".getBytes()), List.of(a), "merge"))
                .hasMessageContaining("21 rules");
    }
}
