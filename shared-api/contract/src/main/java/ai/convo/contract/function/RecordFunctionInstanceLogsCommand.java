package ai.convo.contract.function;

import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

public record RecordFunctionInstanceLogsCommand(
        @TargetAggregateIdentifier FunctionInstanceId functionInstanceId,
        List<String> lines,
        long at) {
}
