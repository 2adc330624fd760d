package ai.convo.command.task;

import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * This process's task runner. It starts once the application is ready (Axon's handlers are subscribed by then) and
 * stops with the context. {@code app.tasks.runner.enabled=false} leaves a process that only accepts writes.
 */
@Configuration(proxyBeanMethods = false)
class TaskExecution {

    @Bean(destroyMethod = "stop")
    @ConditionalOnProperty(name = "app.tasks.runner.enabled", havingValue = "true", matchIfMissing = true)
    TaskRunner taskRunner(TaskRuns runs, CommandGateway gateway, List<TaskWork> works,
                          @Value("${app.tasks.lease-ms:15000}") long leaseMillis,
                          @Value("${app.tasks.poll-ms:300}") long pollMillis,
                          @Value("${app.tasks.threads:2}") int threads,
                          @Value("${app.tasks.max-attempts:3}") int maxAttempts,
                          @Value("${app.tasks.shutdown-grace-ms:5000}") long shutdownGraceMillis,
                          @Value("${app.tasks.long-running.threads:4}") int longThreads,
                          @Value("${app.tasks.long-running.per-organisation:2}") int longPerOrganisation) {
        return new TaskRunner(runs, gateway, works, new TaskRunner.Settings(leaseMillis, pollMillis, threads,
                maxAttempts, shutdownGraceMillis, longThreads, longPerOrganisation));
    }

    @Bean
    TaskMetrics taskMetrics(TaskRuns runs, ObjectProvider<TaskRunner> runner) {
        return new TaskMetrics(runs, runner);
    }

    @Bean
    @ConditionalOnProperty(name = "app.tasks.runner.enabled", havingValue = "true", matchIfMissing = true)
    ApplicationListener<ApplicationReadyEvent> taskRunnerStart(TaskRunner runner) {
        return ready -> runner.start();
    }
}
