package ai.convo.command.web;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;

/**
 * A decision taken again when another writer (on this replica or another) appended to its aggregate first: the
 * aggregate is loaded anew and the command decided on what is now there. Only that race is retried, never a business
 * refusal; a lost creation once (so an aggregate created twice with one id fails as before). Give it the whole transaction the command runs in: a refused
 * append aborts the PostgreSQL transaction, so the retry must start a new one.
 */
public final class DecidingAgain {

    static final int ATTEMPTS = 8;

    private DecidingAgain() {
    }

    public static <T> T run(Supplier<T> decision) {
        boolean creationLost = false;
        for (int attempt = 1; ; attempt++) {
            try {
                return decision.get();
            } catch (RuntimeException e) {
                // a creation lost once is decided again: an aggregate created if missing (a project's snapshot
                // registry) is then found; one created twice with one id fails the same way again, and stays failed
                boolean again = lostTheRace(e) || !creationLost && lostTheCreation(e);
                creationLost |= lostTheCreation(e);
                if (attempt == ATTEMPTS || !again) {
                    throw e;
                }
                // a short random pause, growing with the attempts, so the racing writers do not meet again
                try {
                    Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4 * attempt + 2));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    public static void run(Runnable decision) {
        run(() -> {
            decision.run();
            return null;
        });
    }

    /** Another writer created the aggregate, with this id, first. */
    static boolean lostTheCreation(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof AggregateStreamCreationException) {
                return true;
            }
        }
        return false;
    }

    /** Another writer appended to the aggregate first (not: an aggregate created twice with one id). */
    static boolean lostTheRace(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof AggregateStreamCreationException) {
                return false;
            }
            if (t instanceof ConcurrencyException) {
                return true;
            }
        }
        return false;
    }
}
