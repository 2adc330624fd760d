package ai.convo.query.rebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One reader's batches handed to every consumer in order, a few batches ahead: the log is read and deserialized once
 * however many workers apply it. Waits on either side end when {@code going} turns false (another thread failed).
 */
final class ReadAhead<T> {

    private static final long WAIT_MILLIS = 50;

    private final List<BlockingQueue<List<T>>> queues = new ArrayList<>();

    ReadAhead(int consumers, int depth) {
        for (int i = 0; i < consumers; i++) {
            queues.add(new ArrayBlockingQueue<>(depth));
        }
    }

    /** The reader's side: {@code batch} (not empty) to every consumer; false when halted meanwhile. */
    boolean offer(List<T> batch, BooleanSupplier going) {
        for (BlockingQueue<List<T>> queue : queues) {
            if (!put(queue, batch, going)) {
                return false;
            }
        }
        return true;
    }

    /** The reader's side: no more batches. */
    void end(BooleanSupplier going) {
        for (BlockingQueue<List<T>> queue : queues) {
            if (!put(queue, List.of(), going)) {
                return;
            }
        }
    }

    /** Consumer {@code consumer}'s next batch; empty at the end, or when halted. */
    List<T> next(int consumer, BooleanSupplier going) {
        BlockingQueue<List<T>> queue = queues.get(consumer);
        try {
            while (going.getAsBoolean()) {
                List<T> batch = queue.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
                if (batch != null) {
                    return batch;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of();
    }

    private static <T> boolean put(BlockingQueue<List<T>> queue, List<T> batch, BooleanSupplier going) {
        try {
            while (going.getAsBoolean()) {
                if (queue.offer(batch, WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
