package ai.convo.command.knowledge.ingest;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Who may read a document now: at most {@code slots} parses in the process and one per organisation, the earliest
 * waiter whose organisation is not already parsing going first. A parse cannot be interrupted, so an organisation
 * with a queue of large documents would otherwise hold the reader while another's small one waits behind each of
 * them; here it holds one slot, and the other organisation's document takes the next free one.
 */
final class ExtractionGate {

    private final int slots;
    private final Set<String> parsing = new HashSet<>();
    private final Deque<String[]> waiting = new ArrayDeque<>();

    ExtractionGate(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("at least one parse at a time; got " + slots);
        }
        this.slots = slots;
    }

    /** Waits for a slot for {@code organisation}; false when the time ran out first. */
    synchronized boolean enter(String organisation, long timeout, TimeUnit unit) throws InterruptedException {
        String[] me = {organisation};
        waiting.addLast(me);
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        try {
            while (!myTurn(me)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            parsing.add(organisation);
            return true;
        } finally {
            waiting.remove(me);
            notifyAll();
        }
    }

    synchronized void leave(String organisation) {
        parsing.remove(organisation);
        notifyAll();
    }

    /** A free slot, and no earlier waiter that could take it (one whose organisation is not parsing). */
    private boolean myTurn(String[] me) {
        if (parsing.size() >= slots || parsing.contains(me[0])) {
            return false;
        }
        for (String[] earlier : waiting) {
            if (earlier == me) {
                return true;
            }
            if (!parsing.contains(earlier[0])) {
                return false;
            }
        }
        return true;
    }

    synchronized int parsing() {
        return parsing.size();
    }

    synchronized int waiting() {
        return waiting.size();
    }
}
