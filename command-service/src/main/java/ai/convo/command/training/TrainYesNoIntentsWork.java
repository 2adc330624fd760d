package ai.convo.command.training;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.yesno.RecordYesNoTrainingCommand;
import ai.convo.contract.yesno.YesNoIntentId;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.contract.yesno.YesNoSeeds;
import ai.convo.contract.yesno.YesNoTarget;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The trainYesNoIntents task of one locale: the intent trainer with three labels (yes, no, reject) on the locale's
 * yes/no sentences at one log position; the model stored content-addressed and recorded as
 * {@code YesNoIntentsTrained}, a write of the user who started it. Steps: read, train, store, record.
 */
@Component
class TrainYesNoIntentsWork implements TaskWork {

    static final String TYPE = "trainYesNoIntents";

    private final YesNoTrainingSets sets;
    private final IntentModels models;
    private final Commands commands;

    TrainYesNoIntentsWork(YesNoTrainingSets sets, IntentModels models, Commands commands) {
        this.sets = sets;
        this.models = models;
        this.commands = commands;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String localeId = String.valueOf(context.parameters().get("localeId"));
        String projectId = context.projectId().value();
        context.totalSteps(4);
        TrainingSets.AtPosition read = sets.read(projectId, localeId);
        TrainingSet set = read.set();
        context.stepDone(1);
        if (!IntentTrainer.trainable(set)) {
            throw new TaskFailedException("Locale " + localeId + " has sentences in " + set.intentIds().size()
                    + " enabled yes/no intent(s); training needs at least two. Built-in sentences exist for "
                    + String.join(", ", YesNoSeeds.languages()) + "; add sentences for the locale's language "
                    + set.language() + ".");
        }
        String modelId = IntentTrainer.modelId(set);
        IntentTrainer.Trained trained;
        try {
            trained = IntentTrainer.train(set, Cancellation.of(context::cancelRequested));
        } catch (IntentTrainer.TooLarge refused) {
            throw new TaskFailedException("Locale " + localeId + " was not trained: " + refused.getMessage(), refused);
        } catch (Cancellation.Cancelled stopped) {
            throw new TaskCancelledException();
        }
        context.stepDone(2);
        models.store(modelId, trained.bytes(), null);
        context.stepDone(3); // a cancel noticed here leaves only the cache row
        try {
            commands.sendTogetherAs(context.actor().userId(), List.of(new RecordYesNoTrainingCommand(
                    YesNoIntentId.of(localeId, YesNoKind.YES),
                    new YesNoTarget(localeId, projectId, set.language(), YesNoKind.YES), context.actor(),
                    context.taskId().value(), modelId, set.hash(), read.position(), set.examples().size(),
                    Clock.nowSeconds())), List.of("trainYesNoIntents"));
        } catch (DomainException refused) {
            throw new TaskFailedException(refused.detail() + " The training was not recorded.", refused);
        }
        context.stepDone(4);
    }
}
