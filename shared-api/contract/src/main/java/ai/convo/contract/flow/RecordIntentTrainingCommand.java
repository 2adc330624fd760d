package ai.convo.contract.flow;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records a finished training of the flow's intents (see {@link FlowIntentsTrainedEvent}); sent by its task. */
public record RecordIntentTrainingCommand(
        @TargetAggregateIdentifier FlowId flowId,
        Actor actor,
        String localeId,
        String taskId,
        String mode,
        String modelId,
        String trainingSetHash,
        long position,
        int intents,
        int sentences,
        Double accuracy,
        Double fScore,
        long at) {
}
