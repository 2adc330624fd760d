package ai.convo.command.callcounter;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import ai.convo.contract.callcounter.CallRecordsIngestion;
import ai.convo.contract.callcounter.IngestCallRecordsCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * One accepted batch of call records. Call records are a hot, ever-growing stream of tiny facts, so none of them
 * is an aggregate: a batch is, created once and never loaded again (no history is ever replayed to decide). The
 * one invariant, "a callId counts once per organisation", spans all batches; it is kept by the callId claims
 * ({@link CallIdClaims}, unique per organisation and callId) written in this command's transaction, not by an
 * organisation-wide aggregate, which would serialise every batch of an organisation and replay ever more events.
 *
 * <p>The batch's new records become events of at most {@link #RECORDS_PER_EVENT} records, appended together.
 */
@Aggregate(lockFactory = "aggregateLocks")
public class CallRecordBatchAggregate {

    /** Bounds an event to ~120 KB, so the event store's and the processors' units of 100 events stay small. */
    static final int RECORDS_PER_EVENT = 1_000;

    @AggregateIdentifier
    private String batchId;

    protected CallRecordBatchAggregate() {
        // for Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.ALWAYS)
    public CallRecordsIngestion handle(IngestCallRecordsCommand command, ProjectOwners projects, CallIdClaims claims) {
        List<CallRecord> records = command.records();
        String organisationId = command.organisationId();
        CallRecordProblems problems = CallRecordProblems.of(records, organisationId, projects);
        if (!problems.isEmpty()) {
            throw problems.toException(records.size());
        }
        // A callId repeated within the batch counts once: the first occurrence is the one kept.
        Map<String, CallRecord> firstOccurrences = new LinkedHashMap<>();
        for (CallRecord record : records) {
            firstOccurrences.putIfAbsent(record.callId(), record);
        }
        // Sorted, so concurrent batches take the row locks of shared callIds in the same order (no deadlock).
        List<String> callIds = new ArrayList<>(firstOccurrences.keySet());
        callIds.sort(null);
        String id = command.batchId().value();
        Set<String> claimed = claims.claim(organisationId, id, callIds);
        List<CallRecord> fresh = new ArrayList<>(claimed.size());
        for (CallRecord record : firstOccurrences.values()) {
            if (claimed.contains(record.callId())) {
                fresh.add(record);
            }
        }
        int duplicates = records.size() - fresh.size();
        int parts = Math.max(1, (fresh.size() + RECORDS_PER_EVENT - 1) / RECORDS_PER_EVENT);
        for (int part = 0; part < parts; part++) {
            List<CallRecord> slice = List.copyOf(fresh.subList(part * RECORDS_PER_EVENT,
                    Math.min(fresh.size(), (part + 1) * RECORDS_PER_EVENT)));
            apply(new CallRecordsIngestedEvent(id, organisationId, part, parts, slice, records.size(), duplicates,
                    command.actor().userId(), command.at()));
        }
        return new CallRecordsIngestion(id, organisationId, records.size(), fresh.size(), duplicates);
    }

    @EventSourcingHandler
    void on(CallRecordsIngestedEvent event) {
        batchId = event.batchId();
    }
}
