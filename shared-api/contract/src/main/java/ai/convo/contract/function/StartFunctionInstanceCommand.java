package ai.convo.contract.function;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Sent by the runner: answers a {@link FunctionInstanceRun}; a queued instance becomes active. */
public record StartFunctionInstanceCommand(
        @TargetAggregateIdentifier FunctionInstanceId functionInstanceId,
        String runnerId,
        long at) {
}
