package ai.convo.query.callcounter;

import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * The call counters, built from the call record events only, so a replay rebuilds them exactly.
 *
 * <p>Within one processor batch (a unit of work of up to 100 events) the records of all events are collected
 * per organisation and applied once, just before the batch commits with the processor's token: a day touched by
 * ten events is recomputed once, not ten times. Without a unit of work (plain calls, as in tests) each event is
 * applied at once.
 */
@Component
@ProcessingGroup(CallCounterProjection.GROUP)
public class CallCounterProjection {

    public static final String GROUP = "callcounter";
    /** Applied early when a batch holds this many records, to bound the memory of one flush. */
    static final int FLUSH_AT = 200_000;
    private static final String PENDING = CallCounterProjection.class.getName() + ".pending";

    private final CallCounterStore store;

    public CallCounterProjection(CallCounterStore store) {
        this.store = store;
    }

    @EventHandler
    public void on(CallRecordsIngestedEvent event) {
        if (!store.firstDelivery(event.batchId(), event.part()) || event.records().isEmpty()) {
            return;
        }
        if (!CurrentUnitOfWork.isStarted()) {
            store.apply(event.organisationId(), event.records());
            return;
        }
        UnitOfWork<?> unitOfWork = CurrentUnitOfWork.get();
        Pending pending = unitOfWork.getOrComputeResource(PENDING, key -> {
            Pending created = new Pending();
            unitOfWork.onPrepareCommit(u -> created.flush(store));
            return created;
        });
        pending.add(event.organisationId(), event.records());
        if (pending.size >= FLUSH_AT) {
            pending.flush(store);
        }
    }

    @ResetHandler
    public void reset() {
        store.clear();
    }

    /** The records of one unit of work not yet applied, per organisation (sorted: a fixed lock order). */
    static final class Pending {
        private final Map<String, List<CallRecord>> byOrganisation = new TreeMap<>();
        private int size;

        void add(String organisationId, List<CallRecord> records) {
            byOrganisation.computeIfAbsent(organisationId, o -> new ArrayList<>()).addAll(records);
            size += records.size();
        }

        void flush(CallCounterStore store) {
            byOrganisation.forEach(store::apply);
            byOrganisation.clear();
            size = 0;
        }
    }
}
