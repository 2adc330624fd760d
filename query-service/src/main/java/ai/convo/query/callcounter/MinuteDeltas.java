package ai.convo.query.callcounter;

/**
 * The 60 per-second net deltas of one minute (+1 for each call starting in that second, -1 for each ending)
 * and what a day needs from them: their sum ({@link #net}) and the highest running sum within the minute
 * ({@link #maxPrefix}), taken over all 60 seconds, so a second without change counts with the value before it.
 */
final class MinuteDeltas {

    static final int SECONDS = 60;

    private MinuteDeltas() {
    }

    static int net(int[] deltas) {
        int sum = 0;
        for (int delta : deltas) {
            sum += delta;
        }
        return sum;
    }

    /** max over s in 0..59 of deltas[0] + ... + deltas[s]; the running count relative to the minute's start. */
    static int maxPrefix(int[] deltas) {
        int running = 0;
        int max = Integer.MIN_VALUE;
        for (int delta : deltas) {
            running += delta;
            max = Math.max(max, running);
        }
        return max;
    }

    static String text(int[] deltas) {
        StringBuilder out = new StringBuilder(deltas.length * 2);
        for (int i = 0; i < deltas.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(deltas[i]);
        }
        return out.toString();
    }
}
