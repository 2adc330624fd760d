package ai.convo.contract.callcounter;

import ai.convo.contract.common.Actor;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Ingests one batch of call records for an organisation. {@code records} is the batch exactly as received
 * (same order, so problems can name a record by its index), duplicates included; the handler keeps only the
 * records whose callId is new to the organisation.
 */
public record IngestCallRecordsCommand(
        @TargetAggregateIdentifier CallRecordBatchId batchId,
        String organisationId,
        Actor actor,
        List<CallRecord> records,
        long at) {
}
