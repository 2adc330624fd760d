package ai.convo.contract.function;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record FailFunctionInstanceCommand(
        @TargetAggregateIdentifier FunctionInstanceId functionInstanceId,
        String error,
        long at) {
}
