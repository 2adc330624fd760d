package ai.convo.query.rebuild;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.ObjIntConsumer;

/** Workers of a rebuild's pass or of a catch-up: each on a thread of its own, all stopping once one fails. */
final class Workers {

    private Workers() {
    }

    /**
     * Runs {@code work} for workers 0 to {@code count - 1}, each on a thread named {@code name-<worker>}, and waits
     * for all; the supplier it gets says whether the others still go on. Answers what they threw (an interrupted wait
     * is a {@link Rebuilder.Stopped}); empty when all ended well.
     */
    static List<RuntimeException> run(String name, int count, ObjIntConsumer<BooleanSupplier> work) {
        AtomicBoolean halt = new AtomicBoolean();
        BooleanSupplier going = () -> !halt.get();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < count; w++) {
            int worker = w;
            Thread thread = new Thread(() -> {
                try {
                    work.accept(going, worker);
                } catch (RuntimeException e) {
                    halt.set(true);
                    failures.add(e);
                }
            }, name + "-" + worker);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                halt.set(true);
                failures.add(new Rebuilder.Stopped("Interrupted"));
                break;
            }
        }
        return failures;
    }
}
