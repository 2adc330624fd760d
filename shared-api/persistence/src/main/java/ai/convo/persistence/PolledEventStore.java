package ai.convo.persistence;

import java.util.List;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;

/**
 * Axon's embedded event store, except that a local commit does not make its reader fetch at once. Axon's store wakes
 * its reader after every commit of this process; in the command service, whose one streaming processor (knowledge
 * ingestion) keeps that reader open, that was a fetch round per command: the new event, an empty fetch and a gap
 * check, each in a transaction of its own, about one commit and two statements per command for a processor that
 * handles none of those events. The reader now fetches every {@code app.events.fetch-delay-ms}, while data keeps
 * coming, and processors are woken by NOTIFY ({@link NotifiedEventSource}) as in every other process.
 */
final class PolledEventStore extends EmbeddedEventStore {

    PolledEventStore(Builder builder) {
        super(builder);
    }

    @Override
    protected void afterCommit(List<? extends EventMessage<?>> events) {
        // no fetch per commit: the reader's poll and its run of fetches while events keep coming pick them up
    }
}
