package ai.convo.command.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.resource.ResourceType;
import ai.convo.contract.resource.ResourceTypes;
import ai.convo.testing.ContractEvents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every resource type says whether a project's snapshot holds it (ResourceTypes), and the capture covers each that
 * is held: folding the type's creation event changes the captured content. Types are folded parents first, with the
 * events' sample ids agreeing (every flowId is "flowId-v"), so a state lands in its flow and a sentence in its intent.
 */
class SnapshotCoverageTest {

    static List<String> problems(List<ResourceType> types, List<Class<?>> events) throws Exception {
        List<String> problems = new ArrayList<>();
        List<ResourceType> included = new ArrayList<>();
        for (ResourceType type : types) {
            if (type.snapshot() == null || (!type.snapshot().included() && (type.snapshot().excludedBecause() == null
                    || type.snapshot().excludedBecause().isBlank()))) {
                problems.add(type.name() + ": says neither that snapshots hold it nor why they do not");
            } else if (type.snapshot().included()) {
                included.add(type);
            }
        }
        included.sort(Comparator.comparingInt(type -> type.parents().size()));
        ProjectCapture.Captured captured = new ProjectCapture.Captured();
        for (ResourceType type : included) {
            // a type that no request creates (a locale's yes/no intents) begins with its Seeded event
            Class<?> created = events.stream().filter(e -> type.claims(typeName(e)) && typeName(e).endsWith("Seeded"))
                    .findFirst().or(() -> events.stream().filter(e -> type.claims(typeName(e))
                            && typeName(e).endsWith("Created")).findFirst()).orElse(null);
            if (created == null) {
                problems.add(type.name() + ": snapshots hold it, but it has no *CreatedEvent to capture");
                continue;
            }
            SnapshotContent before = ProjectCapture.toContent(captured);
            ProjectCapture.fold(captured, ContractEvents.sample(created));
            if (ProjectCapture.toContent(captured).equals(before)) {
                problems.add(type.name() + ": snapshots hold it, but ProjectCapture keeps nothing of "
                        + created.getSimpleName() + " (or say why snapshots exclude it in ResourceTypes)");
            }
        }
        return problems;
    }

    private static String typeName(Class<?> event) {
        return event.getSimpleName().replaceFirst("Event$", "");
    }

    @Test
    void givenEveryResourceType_whenItsSnapshotBehaviourIsChecked_thenEachSaysAndTheCaptureCoversTheIncluded()
            throws Exception {
        // given: the resource types and every event of the contract; when
        List<String> problems = problems(ResourceTypes.ALL, ContractEvents.types());
        // then
        assertThat(problems).isEmpty();
        assertThat(ResourceTypes.ALL.stream().filter(t -> t.snapshot().included()).map(ResourceType::name))
                .containsExactly("locale", "snippet", "function", "flow", "flowState", "intent", "examplesentence",
                        "slotFiller", "yesNoIntent");
    }

    /** Planted: a type held by snapshots that the capture ignores, one with no creation event, one that says nothing. */
    @Test
    void givenTypesTheCaptureMisses_whenChecked_thenTheGuardNamesEach() throws Exception {
        List<ResourceType> planted = List.of(
                ResourceType.named("slotFiller", "taskId", "Task").noHistory("planted").inSnapshots(),
                ResourceType.named("chunk", "chunkId", "PlantedChunk").noHistory("planted").inSnapshots(),
                ResourceType.named("member", "memberId", "PlantedMember").noHistory("planted"));
        assertThat(problems(planted, ContractEvents.types())).containsExactly(
                "member: says neither that snapshots hold it nor why they do not",
                "slotFiller: snapshots hold it, but ProjectCapture keeps nothing of TaskCreatedEvent (or say why "
                        + "snapshots exclude it in ResourceTypes)",
                "chunk: snapshots hold it, but it has no *CreatedEvent to capture");
    }
}
