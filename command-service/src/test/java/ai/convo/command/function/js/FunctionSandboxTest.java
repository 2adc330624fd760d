package ai.convo.command.function.js;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.outbound.OutboundGuard;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sandbox with the real engine and a real loopback HTTP server; hostile code must end in an error, cleanly. */
class FunctionSandboxTest {

    static final SandboxLimits LIMITS = new SandboxLimits(Duration.ofSeconds(5), 5_000_000, 64L * 1024 * 1024, 2_000,
            3, 10_000, Duration.ofSeconds(5));
    static HttpServer server;
    static String base;
    static FunctionSandbox allowingLoopback;
    static FunctionSandbox strict;
    static final AtomicInteger rebound = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hello", exchange -> {
            byte[] body = ("{\"greeting\":\"hi " + new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8).length() + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/rebound", exchange -> {
            rebound.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.createContext("/to-private", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://10.0.0.1/secret");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        allowingLoopback = new FunctionSandbox(new SandboxHttp(OutboundGuard.allowing("127.0.0.1")));
        strict = new FunctionSandbox(new SandboxHttp(OutboundGuard.strict()));
    }

    @AfterAll
    static void stop() {
        server.stop(0);
        allowingLoopback.close();
        strict.close();
    }

    private static FunctionSandbox.Outcome run(FunctionSandbox sandbox, String code) {
        return sandbox.run(code, Map.of("name", "Ada", "n", 3), LIMITS, () -> false);
    }

    @Test
    void a_typescript_function_in_the_vendor_form_logs_calls_back_and_finishes() {
        // given: the vendor's TypeScript form, calling a loopback server the operator allowed
        String code = """
                interface IFunctionExecutionArguments { parameters: Record<string, any>; api: any }
                export default async ({ parameters, api }: IFunctionExecutionArguments): Promise<void> => {
                  const n: number = parameters.n as number;
                  const answer = await api.httpRequest({ method: 'POST', url: '%s/hello', body: { n } });
                  api.log(`hello ${parameters.name}`, n, answer.status, answer.json.greeting);
                };
                """.formatted(base);

        // when
        FunctionSandbox.Outcome outcome = run(allowingLoopback, code);

        // then
        assertThat(outcome.error()).isNull();
        assertThat(outcome.logs()).containsExactly("hello Ada 3 200 hi 7");
        assertThat(outcome.httpCalls()).isEqualTo(1);
    }

    @Test
    void plain_javascript_runs_as_written_and_a_thrown_error_names_its_line() {
        FunctionSandbox.Outcome outcome = run(strict, """
                export default async function main({ parameters, api }) {
                  api.log('before');
                  throw new TypeError('no ' + parameters.name);
                }
                """);
        assertThat(outcome.error()).isEqualTo("TypeError: no Ada (line 3)");
        assertThat(outcome.logs()).containsExactly("before");
    }

    @Test
    void a_syntax_error_names_line_and_column() {
        FunctionSandbox.Outcome outcome = run(strict, "const a = 1;\nexport default async () => {\n  let x: = 1 }\n");
        assertThat(outcome.error()).startsWith("SyntaxError at line 3, column 10: Unexpected token `=`");
    }

    @Test
    void code_without_a_default_export_or_with_imports_is_refused_clearly() {
        assertThat(run(strict, "const f = () => 1;").error()).contains("no default export");
        assertThat(run(strict, "import fs from 'fs';\nexport default () => 1;").error())
                .isEqualTo("Line 1: a function cannot import modules; use api.httpRequest to call other services.");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "Java.type('java.lang.System').exit(1)",
            "load('/etc/passwd')",
            "require('fs').readFileSync('/etc/passwd')",
            "process.exit(1)",
            "print('x')",
            "Polyglot.eval('js', '1')",
            "Graal.versionJS.x",
            "java.lang.System.exit(1)",
            "Packages.java.io.File",
            "console.log('x')",
            "setTimeout(() => 1, 1)",
            "new Worker('x')",
            "globalThis.__functionApi__.log(1)",
            "Object.getPrototypeOf(api.log).constructor('return Java')().type('java.io.File')"})
    void the_host_is_out_of_reach(String escape) {
        // when
        FunctionSandbox.Outcome outcome = run(strict, "export default async () => { " + escape + "; };");

        // then: the attempt fails inside the guest; nothing of the host happened (the JVM is still here)
        assertThat(outcome.error()).matches("(ReferenceError|TypeError).*");
    }

    @Test
    void fetch_to_a_private_address_is_refused_even_through_a_redirect() {
        assertThat(run(strict, "export default async ({ api }) => { await api.httpRequest('http://169.254.169.254/latest/meta-data'); };").error())
                .contains("refused").contains("169.254.169.254").contains("only public addresses");
        assertThat(run(strict, "export default async ({ api }) => { await api.httpRequest('" + base + "/hello'); };").error())
                .contains("127.0.0.1, an address inside a private network");
        assertThat(run(allowingLoopback, "export default async ({ api }) => { await api.httpRequest('" + base + "/to-private'); };").error())
                .contains("redirected to http://10.0.0.1/secret").contains("only public addresses");
        assertThat(run(strict, "export default async ({ api }) => { await api.httpRequest('file:///etc/passwd'); };").error())
                .contains("Only http and https");
    }

    @Test
    void a_name_that_rebinds_to_loopback_between_the_check_and_the_connect_is_refused() throws Exception {
        // given: DNS that answers a public address to the first lookup and loopback (the test server) to every later one
        AtomicInteger lookups = new AtomicInteger();
        InetAddress publicAddress = InetAddress.getByName("93.184.216.34");
        OutboundGuard.Lookup rebinding = host -> lookups.getAndIncrement() == 0 ? new InetAddress[] {publicAddress}
                : new InetAddress[] {InetAddress.getLoopbackAddress()};
        int before = rebound.get();
        try (FunctionSandbox sandbox = new FunctionSandbox(new SandboxHttp(new OutboundGuard(Set.of(), rebinding)))) {
            // when
            FunctionSandbox.Outcome outcome = sandbox.run("export default async ({ api }) => { await api.httpRequest("
                    + "{ method: 'POST', url: 'http://rebind.example:" + server.getAddress().getPort() + "/rebound', "
                    + "body: 'secret' }); };", Map.of(), LIMITS, () -> false);

            // then: the connection's own lookup was checked and refused; the server never got the call
            assertThat(outcome.error()).startsWith("HttpRequestError: httpRequest to http://rebind.example")
                    .contains("127.0.0.1, an address inside a private network");
            assertThat(lookups.get()).isGreaterThanOrEqualTo(2);
            assertThat(rebound.get()).isEqualTo(before);
        }
    }

    @Test
    void a_response_over_the_body_limit_is_refused_while_it_streams() {
        SandboxLimits small = new SandboxLimits(Duration.ofSeconds(5), 5_000_000, 64L * 1024 * 1024, 2_000, 3, 10,
                Duration.ofSeconds(5));
        assertThat(allowingLoopback.run("export default async ({ api }) => { await api.httpRequest('" + base
                + "/hello'); };", Map.of(), small, () -> false).error()).contains("at most 10 are read");
    }

    @Test
    void http_calls_are_counted() {
        String code = "export default async ({ api }) => { for (let i = 0; i < 4; i++) await api.httpRequest('" + base + "/hello'); };";
        assertThat(run(allowingLoopback, code).error()).isEqualTo("HttpRequestError: httpRequest: more than 3 calls in one instance. (line 1)");
    }

    @Test
    void an_endless_loop_ends_on_the_statement_limit() {
        long start = System.nanoTime();
        FunctionSandbox.Outcome outcome = run(strict, "export default () => { while (true) {} };");
        assertThat(outcome.error()).isEqualTo("The function ran more than 5000000 statements (the CPU limit of an instance).");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void an_allocation_bomb_ends_on_the_memory_limit() {
        FunctionSandbox.Outcome outcome = run(strict,
                "export default () => { const keep = []; for (;;) keep.push(new Array(100000).fill(1)); };");
        assertThat(outcome.error()).isEqualTo("The function allocated more than 64 MB (the memory limit of an instance).");
    }

    @Test
    void one_huge_allocation_ends_cleanly() {
        assertThat(run(strict, "export default () => { 'x'.repeat(2 ** 30); };").error()).startsWith("RangeError");
        assertThat(run(strict, "export default () => { new Array(1e9).fill(0); };").error())
                .isEqualTo("The function allocated more than 64 MB (the memory limit of an instance).");
    }

    @Test
    void deep_recursion_ends_with_a_range_error() {
        assertThat(run(strict, "export default () => { const r = () => r() + 1; return r(); };").error())
                .startsWith("RangeError: Maximum call stack size exceeded");
    }

    @Test
    void prototype_pollution_stays_in_its_own_context() {
        // given: one run pollutes Object.prototype
        run(strict, "export default () => { Object.prototype.polluted = 'yes'; Array.prototype.push = null; };");

        // when: the next run looks
        FunctionSandbox.Outcome outcome = run(strict,
                "export default ({ api }) => { const a = []; a.push(1); api.log(String(({}).polluted)); };");

        // then
        assertThat(outcome.error()).isNull();
        assertThat(outcome.logs()).containsExactly("undefined");
    }

    @Test
    void logging_over_the_output_limit_ends_the_instance() {
        FunctionSandbox.Outcome outcome = run(strict, "export default ({ api }) => { for (let i = 0; i < 1000; i++) api.log('0123456789'); };");
        assertThat(outcome.error()).isEqualTo("The function logged more than 2000 characters (the output limit of an instance).");
        assertThat(outcome.logs()).hasSize(200);
    }

    @Test
    void wall_time_and_stop_end_a_run_that_waits_on_the_host() {
        SandboxLimits short_ = new SandboxLimits(Duration.ofMillis(300), Long.MAX_VALUE, Long.MAX_VALUE, 2_000, 3, 10_000,
                Duration.ofSeconds(5));
        assertThat(strict.run("export default () => { for (;;) {} };", Map.of(), short_, () -> false).error())
                .isEqualTo("The function ran longer than 0 s (the wall-time limit of an instance).");
        AtomicBoolean stop = new AtomicBoolean(true);
        assertThat(strict.run("export default () => { for (;;) {} };", Map.of(), LIMITS, stop::get).error())
                .isEqualTo("Stopped.");
    }

    @Test
    void a_promise_that_never_settles_is_an_error() {
        assertThat(run(strict, "export default () => new Promise(() => {});").error()).contains("never settled");
        assertThat(strict.run("export default async ({ parameters, api }) => { api.log(parameters); };",
                Map.of("name", "Ada"), LIMITS, () -> false).logs()).isEqualTo(List.of("{\"name\":\"Ada\"}"));
    }
}
