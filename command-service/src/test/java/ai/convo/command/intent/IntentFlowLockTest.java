package ai.convo.command.intent;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.intent.IntentFlowLock.Lock;
import ai.convo.command.intent.IntentFlowLock.Mode;
import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.identity.Role;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.CreateSentenceCommand;
import ai.convo.contract.intent.DeleteIntentCommand;
import ai.convo.contract.intent.DeleteSentenceCommand;
import ai.convo.contract.intent.DetachIntentFromParentCommand;
import ai.convo.contract.intent.IntentContent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.intent.IntentPatch;
import ai.convo.contract.intent.SentenceId;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.intent.UpdateSentenceCommand;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.project.DeleteProjectCommand;
import ai.convo.contract.project.ProjectId;
import org.junit.jupiter.api.Test;

/** Which commands lock their flow, and how: exclusively exactly when they change the parent tree. */
class IntentFlowLockTest {

    static final FlowId FLOW = FlowId.of("f00000000000000000000001");
    static final IntentId INTENT = IntentId.of("e00000000000000000000001");
    static final IntentId PARENT = IntentId.of("e00000000000000000000002");
    static final SentenceId SENTENCE = SentenceId.of("500000000000000000000001");
    static final Actor ACTOR = new Actor("c00000000000000000000001", "b00000000000000000000001", Role.MEMBER);

    @Test
    void givenCommandsThatChangeTheTree_whenIntercepted_thenTheFlowIsLockedExclusively() {
        // given / when / then
        assertThat(IntentFlowLock.lockOf(new CreateIntentCommand(INTENT, FLOW, ACTOR, "r",
                IntentContent.named("x").withParent(PARENT), 1))).isEqualTo(new Lock(FLOW, Mode.EXCLUSIVE));
        assertThat(IntentFlowLock.lockOf(new UpdateIntentCommand(INTENT, FLOW, ACTOR, IntentPatch.parent(null), null, 1)))
                .isEqualTo(new Lock(FLOW, Mode.EXCLUSIVE));
        assertThat(IntentFlowLock.lockOf(new DeleteIntentCommand(INTENT, FLOW, ACTOR, 1)))
                .isEqualTo(new Lock(FLOW, Mode.EXCLUSIVE));
        assertThat(IntentFlowLock.lockOf(new DetachIntentFromParentCommand(INTENT, FLOW, PARENT, "u", 1)))
                .isEqualTo(new Lock(FLOW, Mode.EXCLUSIVE));
    }

    @Test
    void givenOtherIntentAndSentenceCommands_whenIntercepted_thenTheFlowIsLockedShared() {
        // given / when / then
        assertThat(IntentFlowLock.lockOf(new CreateIntentCommand(INTENT, FLOW, ACTOR, "r", IntentContent.named("x"), 1)))
                .isEqualTo(new Lock(FLOW, Mode.SHARED));
        assertThat(IntentFlowLock.lockOf(new UpdateIntentCommand(INTENT, FLOW, ACTOR, IntentPatch.name("y"), null, 1)))
                .isEqualTo(new Lock(FLOW, Mode.SHARED));
        assertThat(IntentFlowLock.lockOf(new CreateSentenceCommand(INTENT, FLOW, SENTENCE, ACTOR, "t",
                LocaleId.of("d00000000000000000000001"), 1))).isEqualTo(new Lock(FLOW, Mode.SHARED));
        assertThat(IntentFlowLock.lockOf(new UpdateSentenceCommand(INTENT, FLOW, SENTENCE, ACTOR, "t", 1)))
                .isEqualTo(new Lock(FLOW, Mode.SHARED));
        assertThat(IntentFlowLock.lockOf(new DeleteSentenceCommand(INTENT, FLOW, SENTENCE, ACTOR, 1)))
                .isEqualTo(new Lock(FLOW, Mode.SHARED));
    }

    @Test
    void givenACommandOfAnotherFeature_whenIntercepted_thenNothingIsLocked() {
        // given / when / then
        assertThat(IntentFlowLock.lockOf(new DeleteProjectCommand(ProjectId.of("a00000000000000000000001"), ACTOR, 1))
                .mode()).isEqualTo(Mode.NONE);
    }
}
