package ai.convo.command.training;

import de.bwaldvogel.liblinear.FeatureNode;
import java.util.function.BooleanSupplier;

/**
 * Whether a training should stop, asked from inside LibLinear's solver: every row's bias node is a {@link Checked}
 * node, whose value the solver reads on each pass over the rows, so a cancel is noticed within a pass rather than
 * after a solve that can take minutes. The request itself (a database read for a task) is asked at most every
 * {@link #EVERY_NANOS}; the counter keeps even the clock out of all but one read in 1,024.
 */
final class Cancellation {

    static final Cancellation NEVER = new Cancellation(() -> false);
    static final long EVERY_NANOS = 250_000_000L;

    private final BooleanSupplier requested;
    private int reads;
    private long next = System.nanoTime();

    private Cancellation(BooleanSupplier requested) {
        this.requested = requested;
    }

    static Cancellation of(BooleanSupplier requested) {
        return new Cancellation(requested);
    }

    /** Throws {@link Cancelled} once a cancel was requested; cheap enough for the solver's inner loop. */
    void check() {
        if (this == NEVER || (++reads & 1023) != 0) {
            return;
        }
        long now = System.nanoTime();
        if (now - next < 0) {
            return;
        }
        next = now + EVERY_NANOS;
        if (requested.getAsBoolean()) {
            throw new Cancelled();
        }
    }

    /** The training stopped because a cancel was requested. */
    static final class Cancelled extends RuntimeException {

        Cancelled() {
            super("The training was cancelled.", null, false, false);
        }
    }

    /** A feature node that asks {@link #check()} whenever the solver reads its value (one per row and pass). */
    static final class Checked extends FeatureNode {

        private final Cancellation cancellation;

        Checked(int index, double value, Cancellation cancellation) {
            super(index, value);
            this.cancellation = cancellation;
        }

        @Override
        public double getValue() {
            cancellation.check();
            return super.getValue();
        }
    }
}
