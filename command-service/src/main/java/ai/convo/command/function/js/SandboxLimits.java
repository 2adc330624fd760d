package ai.convo.command.function.js;

import java.time.Duration;

/**
 * What one instance may use. {@code allocatedBytes} counts every byte the run's thread allocates (live or garbage):
 * the JVM offers no per-context heap limit outside GraalVM's enterprise isolates, and counting allocation stops a memory
 * bomb before it can starve the rest of the process.
 */
public record SandboxLimits(Duration wallTime, long statements, long allocatedBytes, int logChars, int httpCalls,
                            int httpBodyBytes, Duration httpTimeout) {

    public SandboxLimits {
        if (wallTime.isNegative() || wallTime.isZero() || statements < 1 || allocatedBytes < 1 || logChars < 1
                || httpCalls < 0 || httpBodyBytes < 1 || httpTimeout.isNegative() || httpTimeout.isZero()) {
            throw new IllegalArgumentException("function sandbox limits out of range: " + this);
        }
    }
}
