package ai.convo.command.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.flow.FlowAggregate;
import ai.convo.command.function.FunctionAggregate;
import ai.convo.command.intent.IntentAggregate;
import ai.convo.command.project.ProjectAggregate;
import ai.convo.command.slotfiller.SlotFillerAggregate;
import ai.convo.command.token.TokenAggregate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A restore's events go into the aggregates' own streams, under the type names Axon gives those aggregates. */
class RestorePlanTest {

    @Test
    void givenTheAggregatesARestoreWritesTo_whenNamed_thenTheNamesAreTheirClassNames() throws Exception {
        List<String> named = List.of(RestorePlan.PROJECT, RestorePlan.TOKEN, RestorePlan.FUNCTION, RestorePlan.FLOW,
                RestorePlan.INTENT, RestorePlan.SLOT_FILLER, RestorePlan.YES_NO);

        assertThat(named).containsExactly(ProjectAggregate.class.getSimpleName(),
                TokenAggregate.class.getSimpleName(), FunctionAggregate.class.getSimpleName(),
                FlowAggregate.class.getSimpleName(), IntentAggregate.class.getSimpleName(),
                SlotFillerAggregate.class.getSimpleName(),
                Class.forName("ai.convo.command.yesno.YesNoIntentAggregate").getSimpleName()); // package-private
    }
}
