package ai.convo.command.function.js;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.ResourceLimits;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a function's code in GraalJS (interpreter mode on a stock JDK), one fresh context per run on a shared engine.
 * The code sees ECMAScript, its {@code parameters} (a copy, as JSON) and {@code api} ({@code log}, {@code httpRequest});
 * nothing of the host: no Java or polyglot access, no I/O, threads, processes, environment, {@code load} or
 * {@code print}. A watchdog ends a run that is over its wall time, its allocation budget or asked to stop; the engine
 * itself counts statements.
 */
public final class FunctionSandbox implements AutoCloseable {

    /** How a run ended: {@code error} is null when it finished; {@code logs} are what it logged either way. */
    public record Outcome(String error, List<String> logs, int httpCalls) {
        public boolean done() {
            return error == null;
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long WATCH_MILLIS = 20;
    private static final java.util.regex.Pattern STACK_LINE = java.util.regex.Pattern.compile("function\\.mjs:(\\d+)");
    private static final long STOP_CHECK_MILLIS = 500;

    /** Binds the host functions into closures and removes them from the global scope before user code runs. */
    private static final String PRELUDE = """
            (function (log, http) {
              'use strict';
              const text = (v) => typeof v === 'string' ? v : (() => { try { return JSON.stringify(v); } catch (e) { return String(v); } })();
              const api = Object.freeze({
                log: (...args) => { log(args.map(text).join(' ')); },
                httpRequest: async (options) => {
                  const o = typeof options === 'string' ? { url: options } : (options || {});
                  const body = o.body === undefined || o.body === null ? null : (typeof o.body === 'string' ? o.body : JSON.stringify(o.body));
                  const answer = JSON.parse(http(JSON.stringify({ method: o.method, url: o.url, headers: o.headers, body })));
                  if (answer.refused) {
                    const error = new Error(answer.refused);
                    error.name = 'HttpRequestError';
                    throw error;
                  }
                  let json;
                  try { json = JSON.parse(answer.body); } catch (e) { json = undefined; }
                  return { status: answer.status, headers: answer.headers, body: answer.body, json };
                }
              });
              globalThis.__functionApi__ = api;
            })
            """;

    /** Settles the function's result (a promise or a value); a rejection's reason as "Name: message\nstack". */
    private static final String SETTLE = """
            (result, ok, fail) => Promise.resolve(result).then(() => ok(), (e) => fail(
              e instanceof Error ? e.name + ': ' + e.message + '\\n' + (e.stack || '')
                : 'The function threw a value that is not an Error: ' + (() => { try { return JSON.stringify(e); } catch (x) { return String(e); } })()))
            """;

    private final Engine engine = Engine.newBuilder("js").option("engine.WarnInterpreterOnly", "false")
            .out(OutputStream.nullOutputStream()).err(OutputStream.nullOutputStream()).build();
    private final FunctionScript scripts = new FunctionScript();
    private final SandboxHttp http;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "function-watchdog");
        thread.setDaemon(true);
        return thread;
    });
    /** Cancelling waits for the run to reach a safe point; never on the watchdog, which watches every run. */
    private final java.util.concurrent.ExecutorService cancellers = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "function-cancel");
        thread.setDaemon(true);
        return thread;
    });
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public FunctionSandbox(SandboxHttp http) {
        this.http = http;
        threads.setThreadAllocatedMemoryEnabled(true);
        // the engine's first context builds its shared caches (tens of MB); no instance's budget should pay for that
        run("export default async ({ api }) => { api.log(JSON.stringify({ a: [1] })); };", Map.of(),
                new SandboxLimits(java.time.Duration.ofMinutes(1), Long.MAX_VALUE, Long.MAX_VALUE, 100, 0, 1,
                        java.time.Duration.ofSeconds(1)), () -> false);
    }

    /**
     * Runs {@code code} on this thread until it settles, fails or hits a limit. {@code stopRequested} is asked about
     * twice a second (it may query a database).
     */
    public Outcome run(String code, Map<String, Object> parameters, SandboxLimits limits, BooleanSupplier stopRequested) {
        Logs logs = new Logs(limits.logChars());
        int[] calls = {0};
        FunctionScript.Prepared prepared;
        try {
            prepared = scripts.prepare(code);
        } catch (FunctionScript.CodeError e) {
            return new Outcome(e.getMessage(), logs.lines, 0);
        }
        Context context = Context.newBuilder("js").engine(engine)
                .allowHostAccess(HostAccess.NONE).allowPolyglotAccess(PolyglotAccess.NONE).allowIO(IOAccess.NONE)
                .allowCreateThread(false).allowCreateProcess(false).allowNativeAccess(false)
                .allowHostClassLoading(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE).allowExperimentalOptions(false)
                .option("js.load", "false").option("js.print", "false").option("js.graal-builtin", "false")
                .option("js.console", "false")
                .resourceLimits(ResourceLimits.newBuilder().statementLimit(limits.statements(), null).build())
                .build();
        Watch watch = new Watch(context, Thread.currentThread().getId(), limits, stopRequested);
        ScheduledFuture<?> watching = watchdog.scheduleWithFixedDelay(watch, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
        try {
            ProxyExecutable log = args -> {
                logs.add(args.length == 0 ? "" : args[0].asString());
                return null;
            };
            ProxyExecutable call = args -> {
                if (++calls[0] > limits.httpCalls()) {
                    return JSON.writeValueAsString(Map.of("refused", "httpRequest: more than " + limits.httpCalls()
                            + " calls in one instance."));
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                try {
                    SandboxHttp.Call request = JSON.readValue(args[0].asString(), SandboxHttp.Call.class);
                    return JSON.writeValueAsString(http.send(request, limits));
                } catch (SandboxHttp.CallRefused refused) {
                    return JSON.writeValueAsString(Map.of("refused", refused.getMessage()));
                } finally {
                    // the HTTP client's own allocations are the host's, not the function's
                    watch.hostAllocated.addAndGet(threads.getCurrentThreadAllocatedBytes() - before);
                }
            };
            context.eval(Source.create("js", PRELUDE)).execute(log, call);
            Value api = context.eval("js", "(() => { const a = globalThis.__functionApi__; delete globalThis.__functionApi__; return a; })()");
            try {
                context.eval(module(prepared));
            } catch (PolyglotException e) {
                if (!e.isSyntaxError() || prepared.transpiled()) {
                    throw e;
                }
                try {
                    prepared = scripts.typeScript(code);
                } catch (FunctionScript.CodeError notTypeScriptEither) {
                    return new Outcome(notTypeScriptEither.getMessage(), logs.lines, 0);
                }
                context.eval(module(prepared));
            }
            Value main = context.getBindings("js").getMember(FunctionScript.MAIN);
            if (main == null || !main.canExecute()) {
                return new Outcome("The default export is not a function; write it as "
                        + "`export default async ({ parameters, api }) => { ... }`.", logs.lines, calls[0]);
            }
            Value argument = context.eval("js", "(p, api) => ({ parameters: JSON.parse(p), api })")
                    .execute(JSON.writeValueAsString(parameters == null ? Map.of() : parameters), api);
            Value result = main.execute(argument);
            String[] settled = {null, null};
            context.eval("js", SETTLE).execute(result, (ProxyExecutable) a -> {
                settled[0] = "done";
                return null;
            }, (ProxyExecutable) a -> {
                settled[0] = "error";
                settled[1] = a[0].asString();
                return null;
            });
            // pending jobs run when the outermost call returns; this empty call makes sure they have
            context.eval("js", "undefined");
            if (settled[0] == null) {
                return new Outcome("The function's promise never settled (it awaited something that never "
                        + "happens).", logs.lines, calls[0]);
            }
            if (settled[0].equals("error")) {
                return new Outcome(withLine(settled[1]), logs.lines, calls[0]);
            }
            return logs.overflowed ? new Outcome(logs.overflowMessage(), logs.lines, calls[0])
                    : new Outcome(null, logs.lines, calls[0]);
        } catch (PolyglotException e) {
            return new Outcome(watch.reason != null ? watch.reason : describe(e, limits), logs.lines, calls[0]);
        } catch (IllegalStateException closed) {
            // the watchdog closed the context between two calls of this thread
            return new Outcome(watch.reason != null ? watch.reason : "The run was ended: " + closed.getMessage(),
                    logs.lines, calls[0]);
        } finally {
            watching.cancel(false);
            synchronized (watch) {
                watch.finished = true;
            }
            context.close(true);
        }
    }

    private static Source module(FunctionScript.Prepared prepared) {
        return Source.newBuilder("js", prepared.module(), "function.mjs").mimeType("application/javascript+module")
                .buildLiteral();
    }

    private static String describe(PolyglotException e, SandboxLimits limits) {
        if (e.isResourceExhausted() && e.getMessage() != null && e.getMessage().contains("Statement count limit")) {
            return "The function ran more than " + limits.statements() + " statements (the CPU limit of an instance).";
        }
        if (e.isResourceExhausted()) {
            return "The function used more memory than an instance may: " + e.getMessage();
        }
        if (e.isCancelled()) {
            return "The run was cancelled.";
        }
        if (e.isHostException() && e.asHostException() instanceof SandboxHttp.CallRefused refused) {
            return refused.getMessage();
        }
        if (e.isHostException()) {
            return "A call to api failed: " + e.asHostException().getClass().getSimpleName();
        }
        String where = e.getSourceLocation() != null && e.getSourceLocation().isAvailable()
                ? " (line " + e.getSourceLocation().getStartLine() + ")" : "";
        return (e.getMessage() == null ? "The function failed" : e.getMessage()) + where;
    }

    /** "Name: message" and the line of the function's code where it was thrown, from the first frame of the stack. */
    private static String withLine(String described) {
        int cut = described.indexOf('\n');
        String text = cut < 0 ? described : described.substring(0, cut);
        java.util.regex.Matcher line = STACK_LINE.matcher(cut < 0 ? "" : described.substring(cut));
        return line.find() ? text + " (line " + line.group(1) + ")" : text;
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        cancellers.shutdownNow();
        engine.close();
    }

    /** Log lines, capped in characters over the whole run. */
    private static final class Logs {
        final List<String> lines = new ArrayList<>();
        final int max;
        int used;
        boolean overflowed;

        Logs(int max) {
            this.max = max;
        }

        void add(String line) {
            if (overflowed) {
                return;
            }
            if (used + line.length() > max) {
                overflowed = true;
                return;
            }
            used += line.length();
            lines.add(line);
        }

        String overflowMessage() {
            return "The function logged more than " + max + " characters (the output limit of an instance).";
        }
    }

    /** Watches one run from the watchdog thread; the first limit hit gives the reason and cancels the context. */
    private final class Watch implements Runnable {
        final Context context;
        final long threadId;
        final SandboxLimits limits;
        final BooleanSupplier stopRequested;
        final long startNanos = System.nanoTime();
        final long allocatedAtStart;
        final java.util.concurrent.atomic.AtomicLong hostAllocated = new java.util.concurrent.atomic.AtomicLong();
        long lastStopCheck = startNanos - TimeUnit.MILLISECONDS.toNanos(STOP_CHECK_MILLIS);
        volatile String reason;
        boolean finished;

        Watch(Context context, long threadId, SandboxLimits limits, BooleanSupplier stopRequested) {
            this.context = context;
            this.threadId = threadId;
            this.limits = limits;
            this.stopRequested = stopRequested;
            this.allocatedAtStart = threads.getThreadAllocatedBytes(threadId);
        }

        @Override
        public void run() {
            if (reason != null) {
                return;
            }
            long now = System.nanoTime();
            String why = null;
            if (now - startNanos > limits.wallTime().toNanos()) {
                why = "The function ran longer than " + limits.wallTime().toSeconds() + " s (the wall-time limit of "
                        + "an instance).";
            } else if (threads.getThreadAllocatedBytes(threadId) - allocatedAtStart - hostAllocated.get()
                    > limits.allocatedBytes()) {
                why = "The function allocated more than " + limits.allocatedBytes() / (1024 * 1024) + " MB (the "
                        + "memory limit of an instance).";
            } else if (now - lastStopCheck >= TimeUnit.MILLISECONDS.toNanos(STOP_CHECK_MILLIS)) {
                lastStopCheck = now;
                if (stopRequested.getAsBoolean()) {
                    why = "Stopped.";
                }
            }
            if (why != null) {
                synchronized (this) {
                    if (finished) {
                        return;
                    }
                    reason = why;
                }
                cancellers.execute(() -> context.close(true));
            }
        }
    }
}
