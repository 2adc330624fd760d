package ai.convo.command.web;

import java.time.Instant;

/** Timestamps of this API are integer Unix seconds. */
public final class Clock {
    private Clock() {
    }

    public static long nowSeconds() {
        return Instant.now().getEpochSecond();
    }
}
