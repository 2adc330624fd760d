package ai.convo.command.function;

import ai.convo.command.function.js.FunctionSandbox;
import ai.convo.command.function.js.SandboxLimits;
import ai.convo.command.task.TaskCancelledException;
import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.function.FailFunctionInstanceCommand;
import ai.convo.contract.function.FinishFunctionInstanceCommand;
import ai.convo.contract.function.FunctionInstanceId;
import ai.convo.contract.function.FunctionInstanceRun;
import ai.convo.contract.function.RecordFunctionInstanceLogsCommand;
import ai.convo.contract.function.StartFunctionInstanceCommand;
import java.lang.management.ManagementFactory;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The runFunction task: one function instance run in the sandbox, on whichever replica claims the task (under the task
 * runner's per-organisation fairness). A run whose replica died is not run again: the code may already have called out,
 * so the instance ends {@code error} saying so.
 */
@Component
class RunFunctionWork implements TaskWork {

    static final String TYPE = "runFunction";
    static final String RUNNER_DIED = "The replica running this instance stopped before the run ended; it was not run "
            + "again, because its code may already have had effects. Trigger the function again.";

    private final CommandGateway gateway;
    private final ObjectProvider<FunctionSandbox> sandbox;
    private final SandboxLimits limits;
    private final String runnerId = ManagementFactory.getRuntimeMXBean().getName();

    RunFunctionWork(CommandGateway gateway, ObjectProvider<FunctionSandbox> sandbox, SandboxLimits limits) {
        this.gateway = gateway;
        this.sandbox = sandbox;
        this.limits = limits;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public boolean longRunning() {
        return true;
    }

    @Override
    public void run(TaskContext context) {
        FunctionInstanceId id = FunctionInstanceId.of(String.valueOf(context.parameters().get("functionInstanceId")));
        FunctionInstanceRun run;
        try {
            run = send(new StartFunctionInstanceCommand(id, runnerId, Clock.nowSeconds()));
        } catch (DomainException ended) {
            // stopped before it started: nothing runs
            throw new TaskCancelledException();
        }
        if (run.wasActive()) {
            endQuietly(new FailFunctionInstanceCommand(id, RUNNER_DIED, Clock.nowSeconds()));
            return;
        }
        FunctionSandbox.Outcome outcome = sandbox.getObject().run(run.code(), run.parameters(), limits,
                context::cancelRequested);
        if (!outcome.logs().isEmpty()) {
            endQuietly(new RecordFunctionInstanceLogsCommand(id, outcome.logs(), Clock.nowSeconds()));
        }
        if (context.cancelRequested()) {
            // the stop already ended the instance
            throw new TaskCancelledException();
        }
        endQuietly(outcome.done() ? new FinishFunctionInstanceCommand(id, Clock.nowSeconds())
                : new FailFunctionInstanceCommand(id, outcome.error(), Clock.nowSeconds()));
    }

    /** The task was given up before this work could end its instance: the instance must not stay active. */
    @Override
    public void givenUp(String taskId, java.util.Map<String, Object> parameters, String reason) {
        endQuietly(new FailFunctionInstanceCommand(FunctionInstanceId.of(String.valueOf(parameters.get("functionInstanceId"))),
                RUNNER_DIED, Clock.nowSeconds()));
    }

    /** A stop may have ended the instance meanwhile; then there is nothing more to record. */
    private void endQuietly(Object command) {
        try {
            send(command);
        } catch (DomainException alreadyEnded) {
            if (alreadyEnded.kind() != DomainException.Kind.CONFLICT) {
                throw alreadyEnded;
            }
        }
    }

    private <R> R send(Object command) {
        try {
            return gateway.sendAndWait(command);
        } catch (CommandExecutionException e) {
            throw e.getCause() instanceof DomainException domain ? domain : e;
        }
    }
}
