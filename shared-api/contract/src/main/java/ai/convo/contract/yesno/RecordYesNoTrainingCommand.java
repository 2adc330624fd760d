package ai.convo.contract.yesno;

import ai.convo.contract.common.Actor;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records a trained yes/no model of a locale; sent to the locale's yes intent, which keeps the locale's training. */
public record RecordYesNoTrainingCommand(
        @TargetAggregateIdentifier YesNoIntentId yesNoIntentId,
        YesNoTarget target,
        Actor actor,
        String taskId,
        String modelId,
        String trainingSetHash,
        long position,
        int sentences,
        long at) {
}
