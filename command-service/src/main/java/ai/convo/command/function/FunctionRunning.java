package ai.convo.command.function;

import ai.convo.command.function.js.FunctionSandbox;
import ai.convo.command.function.js.SandboxHttp;
import ai.convo.command.function.js.SandboxLimits;
import ai.convo.http.outbound.OutboundGuard;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/** The sandbox and its limits per instance ({@code app.functions.*}); the defaults follow the vendor's 15 minutes. */
@Configuration(proxyBeanMethods = false)
class FunctionRunning {

    @Bean
    SandboxLimits functionLimits(@Value("${app.functions.wall-time:15m}") Duration wallTime,
                                 @Value("${app.functions.max-statements:200000000}") long statements,
                                 @Value("${app.functions.max-allocated-mb:512}") long allocatedMb,
                                 @Value("${app.functions.max-log-chars:65536}") int logChars,
                                 @Value("${app.functions.max-http-calls:100}") int httpCalls,
                                 @Value("${app.functions.max-http-body-bytes:1048576}") int httpBodyBytes,
                                 @Value("${app.functions.http-timeout:30s}") Duration httpTimeout) {
        return new SandboxLimits(wallTime, statements, allocatedMb * 1024 * 1024, logChars, httpCalls, httpBodyBytes,
                httpTimeout);
    }

    /**
     * {@code app.functions.allowed-hosts}: hosts an operator lets functions call although they are not public (commas or
     * spaces between names, as {@code app.knowledge.url.allowed-hosts}). Built
     * at the first run: the engine's warm-up (about a second) is not paid by a process that runs no function.
     */
    @Bean(destroyMethod = "close")
    @Lazy
    FunctionSandbox functionSandbox(@Value("${app.functions.allowed-hosts:}") String allowedHosts) {
        return new FunctionSandbox(new SandboxHttp(OutboundGuard.allowing(allowedHosts)));
    }
}
