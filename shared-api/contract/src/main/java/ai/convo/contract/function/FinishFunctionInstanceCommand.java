package ai.convo.contract.function;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record FinishFunctionInstanceCommand(
        @TargetAggregateIdentifier FunctionInstanceId functionInstanceId,
        long at) {
}
