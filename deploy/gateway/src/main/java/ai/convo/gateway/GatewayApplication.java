package ai.convo.gateway;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.WebFilter;

/**
 * One base URL for clients: reads (GET, HEAD, OPTIONS) go to the query service, everything else to the command
 * service; each may be several replicas ({@link Upstreams}).
 */
@SpringBootApplication
@EnableConfigurationProperties(GatewayApplication.Backends.class)
public class GatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(GatewayApplication.class, args);
    }

    /**
     * The replicas of each side: a comma-separated list of base URIs each (COMMAND_SERVICE_URI, QUERY_SERVICE_URI),
     * and the path that says a replica takes requests (a query replica: once its projections caught up).
     */
    @ConfigurationProperties("app.gateway")
    public record Backends(List<URI> commandUri, List<URI> queryUri, String commandHealthPath, String queryHealthPath) {
    }

    @Bean
    Upstreams upstreams(Backends backends) {
        return new Upstreams(Map.of("command", backends.commandUri(), "query", backends.queryUri()),
                Map.of("command", backends.commandHealthPath(), "query", backends.queryHealthPath()));
    }

    /** The API's merged OpenAPI document and its browsable page, answered here before any route forwards. */
    @Bean
    org.springframework.web.reactive.function.server.RouterFunction<org.springframework.web.reactive.function.server.ServerResponse>
            apiDocs(Upstreams upstreams) {
        return new ApiDocs(upstreams).routes();
    }

    @Bean
    RouteLocator routes(RouteLocatorBuilder builder, Backends backends) {
        // Host is kept too, so links the services build from it point at the gateway, not at themselves.
        // A read that failed on its connection (refused, reset, closed before the answer: a replica that died) is
        // sent to the next replica; reads change nothing. A write is sent again only when its connection was
        // refused, so it reached no replica: a write that reached one is never sent twice.
        int otherQueries = Math.max(1, backends.queryUri().size() - 1);
        int otherCommands = Math.max(1, backends.commandUri().size() - 1);
        return builder.routes()
                // files a task made on the write side (a snapshot package, an intent export) are GETs answered by
                // the command service
                .route("downloads", r -> r.order(-1)
                        .method(HttpMethod.GET, HttpMethod.HEAD).and().path("/new/v2.0/snapshots/*/download",
                                "/new/v2.0/flows/*/intents/export/*")
                        .filters(f -> f.preserveHostHeader())
                        .uri(Upstreams.SCHEME + "://command"))
                .route("reads", r -> r.order(0)
                        .method(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS)
                        .filters(f -> f.preserveHostHeader().retry(retry -> retry.setRetries(otherQueries)
                                .setMethods(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS)
                                .setSeries().setStatuses()
                                .setExceptions(IOException.class)))
                        .uri(Upstreams.SCHEME + "://query"))
                .route("writes", r -> r.order(1).alwaysTrue()
                        .filters(f -> f.preserveHostHeader().retry(retry -> retry.setRetries(otherCommands)
                                .setMethods(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE)
                                .setSeries().setStatuses()
                                .setExceptions(ConnectException.class)))
                        .uri(Upstreams.SCHEME + "://command"))
                .build();
    }

    @Bean
    PreflightForwardingHandlerMapping preflightForwardingHandlerMapping(FilteringWebHandler webHandler,
            RouteLocator routeLocator, GlobalCorsProperties globalCorsProperties, Environment environment) {
        return new PreflightForwardingHandlerMapping(webHandler, routeLocator, globalCorsProperties, environment);
    }

    @Bean
    WebFilter preflightForwardingFilter(PreflightForwardingHandlerMapping mapping) {
        return mapping.preflightFilter();
    }

    /**
     * The services' limit (ai.convo.http.HttpConfiguration.MAX_BODY_BYTES), enforced before a body is forwarded; a
     * knowledge upload may carry the vendor's 10 MB file (DocumentText's limit) plus its form's few small fields.
     */
    @Bean
    BodySizeLimit bodySizeLimit() {
        return new BodySizeLimit(2L * 1024 * 1024, UPLOAD_PATHS, 10L * 1024 * 1024 + 64 * 1024);
    }

    static final java.util.regex.Pattern UPLOAD_PATHS =
            java.util.regex.Pattern.compile(".*/v2\\.0/knowledgestores/[^/]+/sources/upload/?");

    @Bean
    ForwardedFor forwardedFor() {
        return new ForwardedFor();
    }

    /** Netty's own refusals (URI or headers too long, not HTTP) answered with a problem body too. */
    @Bean
    org.springframework.boot.reactor.netty.NettyServerCustomizer decodeFailureProblems() {
        return ai.convo.edge.NettyRefusals::install;
    }

    @Bean
    ProblemErrorHandler problemErrorHandler() {
        return new ProblemErrorHandler();
    }
}
