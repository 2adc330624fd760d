package ai.convo.command.training;

import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskFailedException;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.flow.RecordIntentTrainingCommand;
import ai.convo.http.media.Renderer;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The trainIntents task: reads the flow's training set at one log position, trains (or finds, by its id, the model
 * that set already trained), in mode "full" cross-validates it ({@link CrossValidation#FOLDS} steps), stores the
 * model content-addressed and records {@code FlowIntentsTrained} as a write of the user who started it.
 * Steps: read, train, the folds (full), record.
 */
@Component
class TrainIntentsWork implements TaskWork {

    static final String TYPE = "trainIntents";

    private final TrainingSets sets;
    private final IntentModels models;
    private final Commands commands;

    TrainIntentsWork(TrainingSets sets, IntentModels models, Commands commands) {
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
        Map<String, Object> parameters = context.parameters();
        trainRefusable(context, String.valueOf(parameters.get("flowId")), String.valueOf(parameters.get("localeId")),
                String.valueOf(parameters.get("mode")), 0, 1);
    }

    /** {@link #train}, with a refusal of the record (the flow deleted meanwhile) as the task's readable failure. */
    boolean trainRefusable(TaskContext context, String flowId, String localeId, String mode, int offset, int flows) {
        try {
            return train(context, flowId, localeId, mode, offset, flows);
        } catch (DomainException refused) {
            throw new TaskFailedException(refused.detail() + " The training was not recorded.", refused);
        }
    }

    /**
     * Trains one flow; {@code offset} and {@code flows} place its steps among a project's (trainAllProjectFlows).
     * Returns false when the flow has too few intents to train (nothing recorded).
     */
    boolean train(TaskContext context, String flowId, String localeId, String mode, int offset, int flows) {
        boolean full = "full".equals(mode);
        int steps = 3 + (full ? CrossValidation.FOLDS : 0);
        context.totalSteps(steps * flows);
        TrainingSets.AtPosition read = sets.read(context.projectId().value(), flowId, localeId);
        TrainingSet set = read.set();
        context.stepDone(offset + 1);
        if (!IntentTrainer.trainable(set)) {
            if (flows == 1) {
                throw new TaskFailedException("Flow " + flowId + " has " + set.intentIds().size() + " enabled intent(s) "
                        + "with example sentences in locale " + localeId + "; training needs at least two.");
            }
            return false;
        }
        String modelId = IntentTrainer.modelId(set);
        IntentTrainer.Trained trained;
        Map<String, Object> report = null;
        Cancellation cancellation = Cancellation.of(context::cancelRequested);
        try {
            trained = IntentTrainer.train(set, cancellation);
            context.stepDone(offset + 2);
            if (full && !models.hasReport(modelId)) {
                report = CrossValidation.run(set, fold -> context.stepDone(offset + 2 + fold), cancellation);
            }
        } catch (IntentTrainer.TooLarge refused) {
            throw new TaskFailedException("Flow " + flowId + " was not trained: " + refused.getMessage(), refused);
        } catch (Cancellation.Cancelled stopped) {
            throw new TaskCancelledException();
        }
        if (full && report == null) {
            context.stepDone(offset + 2 + CrossValidation.FOLDS);
        }
        Double accuracy = null;
        Double fScore = null;
        if (report != null) {
            @SuppressWarnings("unchecked")
            Map<String, Object> info = (Map<String, Object>) ((Map<String, Object>) report.get("flow")).get("info");
            accuracy = ((Number) info.get("accuracy")).doubleValue();
            fScore = ((Number) info.get("fScore")).doubleValue();
        }
        models.store(modelId, trained.bytes(), report == null ? null : Renderer.JSON.writeValueAsString(report));
        context.stepDone(offset + steps - 1); // a cancel noticed here leaves only the cache row
        commands.sendTogetherAs(context.actor().userId(), List.of(new RecordIntentTrainingCommand(FlowId.of(flowId),
                context.actor(), localeId, context.taskId().value(), mode, modelId, set.hash(), read.position(),
                set.intentIds().size(), set.examples().size(), accuracy, fScore, Clock.nowSeconds())),
                List.of("trainIntents"));
        context.stepDone(offset + steps);
        return true;
    }
}
