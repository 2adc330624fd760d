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
    void givenALargeFile_whenCutIntoParts_thenEachIsAboutThePartSizeInFileOrderAndNoIntentIsCutFromItsSentences() {
        // given: 1,000 intents with 1 to 9 example sentences each, the first a child of the last
        StringBuilder json = new StringBuilder("[{\"name\":\"I0\",\"parentIntentName\":\"I999\"}");
        for (int i = 1; i < 1_000; i++) {
            json.append(",{\"name\":\"I").append(i).append("\",\"exampleSentences\":[");
            for (int s = 0; s <= i % 9; s++) {
                json.append(s == 0 ? "" : ",").append("\"s").append(s).append('"');
            }
            json.append("]}");
        }
        IntentImportPlan.Plan plan = plan(IntentFile.read(json.append(']').toString().getBytes()), List.of(), "skip");

        // when
        List<IntentImportPlan.Part> parts = plan.parts(500);

        // then: the parts hold every command once, in the plan's order (parents first)
        assertThat(parts.stream().flatMap(part -> part.commands().stream()).toList())
                .containsExactlyElementsOf(plan.commands());
        assertThat(parts.stream().mapToInt(IntentImportPlan.Part::intents).sum()).isEqualTo(1_000);
        for (IntentImportPlan.Part part : parts) {
            // each starts with an intent's own command, and holds at most one intent's events past the size
            assertThat(part.commands().get(0)).isInstanceOf(CreateIntentCommand.class);
            assertThat(part.labels()).hasSameSizeAs(part.commands());
            int events = part.commands().stream().mapToInt(c -> c instanceof BatchSentencesCommand b
                    ? b.operations().size() : 1).sum();
            assertThat(events).isLessThan(500 + 10);
        }
        assertThat(parts).hasSizeGreaterThan(10);
        // and a small file is one part: all or nothing
        assertThat(plan(IntentFile.read("[{\"name\":\"A\"},{\"name\":\"B\"}]".getBytes()), List.of(), "skip")
                .parts(500)).hasSize(1);
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
