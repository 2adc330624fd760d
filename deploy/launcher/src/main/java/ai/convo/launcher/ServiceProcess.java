package ai.convo.launcher;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A service jar running in a child JVM, its output appended to a log file. */
public final class ServiceProcess {

    private static final String MARKER = "==== ";
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final Process process;
    private final Path logFile;

    private ServiceProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code java <jvmArgs> -jar <jar>} with the launcher's own java binary and environment plus {@code env}.
     */
    public static ServiceProcess start(String name, Path jar, Map<String, String> env, List<String> jvmArgs,
                                       Path logFile) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IOException(name + ": " + jar + " not found; build it first (./mvnw -DskipTests package)");
        }
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        Files.writeString(logFile, System.lineSeparator() + MARKER + name + " starting at " + Instant.now()
                        + " ====" + System.lineSeparator(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        return new ServiceProcess(name, process, logFile);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** Exit code, or -1 while still running. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** Completes when the process has exited, for whatever reason. */
    public CompletableFuture<ServiceProcess> onExit() {
        return process.onExit().thenApply(p -> this);
    }

    /**
     * Polls {@code healthUrl} every 200 ms until it answers 200.
     *
     * @throws IllegalStateException if the process exits first or {@code timeout} passes; the message ends with the
     *                               tail of the log
     */
    public void awaitHealthy(URI healthUrl, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest request = HttpRequest.newBuilder(healthUrl).timeout(Duration.ofSeconds(2)).GET().build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before becoming healthy. Last lines of " + logFile + ":\n" + logTail(40));
            }
            try {
                if (HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYetListening) {
                // keep polling
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + name, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not answer 200 on " + healthUrl + " within "
                        + timeout.toSeconds() + " s. Last lines of " + logFile + ":\n" + logTail(40));
            }
            sleep(POLL_INTERVAL);
        }
    }

    /** SIGKILL, then waits for the process to be gone. */
    public void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(10));
    }

    /** SIGTERM (graceful shutdown), SIGKILL if still running after 20 s. */
    public void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!waitFor(STOP_GRACE)) {
            kill();
        }
    }

    /** The last {@code lines} lines of the log file (reads only its end; logs are appended across runs). */
    public String logTail(int lines) {
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
            long start = Math.max(0, file.length() - 64 * 1024);
            byte[] bytes = new byte[(int) (file.length() - start)];
            file.seek(start);
            file.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
            // Only this run's lines: the file also holds earlier runs, each starting with our marker line.
            int from = Math.max(0, all.size() - lines);
            for (int i = all.size() - 1; i >= from; i--) {
                if (all.get(i).startsWith(MARKER + name + " starting")) {
                    from = i + 1;
                    break;
                }
            }
            return String.join(System.lineSeparator(), all.subList(from, all.size()));
        } catch (IOException e) {
            return "(could not read " + logFile + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
