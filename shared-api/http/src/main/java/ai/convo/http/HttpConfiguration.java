package ai.convo.http;

import ai.convo.http.audit.RefusalAudit;
import ai.convo.http.audit.RefusalLog;
import ai.convo.http.media.ProblemExceptionHandler;
import ai.convo.http.media.ProblemWriter;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiAuthenticationFilter;
import ai.convo.http.security.BearerTokens;
import ai.convo.http.security.EagerFirewall;
import ai.convo.http.security.IdentityStore;
import ai.convo.http.security.RoutePolicy;
import ai.convo.http.security.SecurityHeaders;
import ai.convo.http.web.CorsFilter;
import ai.convo.http.web.DeprecationHeaders;
import ai.convo.http.web.HealthController;
import ai.convo.http.web.IndexedHandlerMapping;
import ai.convo.http.web.RequestMetrics;
import ai.convo.http.web.TraceIds;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.boot.webflux.autoconfigure.WebFluxRegistrations;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.firewall.ServerWebExchangeFirewall;
import org.springframework.security.web.server.header.HttpHeaderWriterWebFilter;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerTypePredicate;
import org.springframework.web.reactive.config.PathMatchConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * The cross-cutting HTTP rules both services share: base path, body size limit, trace ids, CORS, problem
 * bodies and authentication. A service imports this and provides an {@link IdentityStore}.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@Import({HealthController.class, ai.convo.http.openapi.ApiDescriptionController.class})
public class HttpConfiguration implements WebFluxConfigurer {

    public static final int MAX_BODY_BYTES = 2 * 1024 * 1024;

    private static final org.springframework.security.authorization.AuthenticatedReactiveAuthorizationManager<
            org.springframework.security.web.server.authorization.AuthorizationContext> AUTHENTICATED =
            org.springframework.security.authorization.AuthenticatedReactiveAuthorizationManager.authenticated();

    private final String basePath;

    public HttpConfiguration(@Value("${app.base-path:/new}") String basePath) {
        this.basePath = basePath;
    }

    @Override
    public void configurePathMatching(PathMatchConfigurer configurer) {
        // A prefix on the handlers (not spring.webflux.base-path), so requests outside it still get problem bodies.
        configurer.addPathPrefix(basePath, HandlerTypePredicate.forAnnotation(RestController.class));
    }

    @Override
    public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
        configurer.defaultCodecs().maxInMemorySize(MAX_BODY_BYTES);
    }

    /** Spring's annotated handler mapping, with candidates indexed by the path's literal start. */
    @Bean
    WebFluxRegistrations indexedHandlerMapping() {
        return new WebFluxRegistrations() {
            @Override
            public RequestMappingHandlerMapping getRequestMappingHandlerMapping() {
                return new IndexedHandlerMapping();
            }
        };
    }

    /** What Netty refuses before any handler (URI or headers too long, not HTTP) gets a problem body too. */
    @Bean
    org.springframework.boot.reactor.netty.NettyServerCustomizer nettyRefusals() {
        return ai.convo.edge.NettyRefusals::install;
    }

    /** http.server.requests, recorded by one filter ({@link RequestMetrics} says why). */
    @Bean
    RequestMetrics requestMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        return new RequestMetrics(registry);
    }

    /** Spring's own per-request observation of it, given a no-op registry, records nothing (RequestMetrics does). */
    @Bean
    org.springframework.boot.webflux.autoconfigure.WebHttpHandlerBuilderCustomizer noRequestObservations() {
        return builder -> builder.observationRegistry(io.micrometer.observation.ObservationRegistry.NOOP);
    }

    @Bean
    TraceIds traceIds() {
        return new TraceIds();
    }

    @Bean
    CorsFilter corsFilter() {
        return new CorsFilter();
    }

    @Bean
    DeprecationHeaders deprecationHeaders() {
        return new DeprecationHeaders(basePath);
    }

    /** Refused requests go to the audit trail when the service has a {@link RefusalLog}. */
    @Bean
    RefusalAudit refusalAudit(ObjectProvider<RefusalLog> logs) {
        return new RefusalAudit(logs);
    }

    @Bean
    ProblemExceptionHandler problemExceptionHandler() {
        return new ProblemExceptionHandler();
    }

    /**
     * No observation of Spring Security's own filters, authentication or authorization. Turning them off in
     * management.observations still wraps every filter of the chain in a no-op observation on every request
     * (about a tenth of a cached read's CPU); this keeps Spring Security from wrapping at all. The request as a whole
     * is still measured (http.server.requests, by {@link RequestMetrics}).
     */
    @Bean
    static org.springframework.security.config.observation.SecurityObservationSettings securityObservations() {
        return org.springframework.security.config.observation.SecurityObservationSettings.noObservations();
    }

    /** Picked up by Spring Security's filter chain proxy in place of its default firewall. */
    @Bean
    ServerWebExchangeFirewall firewall() {
        return new EagerFirewall();
    }

    /** What the firewall refuses (an encoded slash or null in the path, ...) is a 400 problem body, not an empty 400. */
    @Bean
    org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler firewallRefusals() {
        return (exchange, rejected) -> ai.convo.http.media.ProblemWriter.write(exchange, ai.convo.http.problem.ApiProblem
                .badRequest("The request is refused whatever its route: its path, a header or a query parameter holds "
                        + "what this server never accepts (an encoded slash, backslash, percent or period, a null or "
                        + "other control character, '..', ';' or '//'). " + rejected.getMessage()));
    }

    /** Whether the path is /actuator or under it (what the patterns "/actuator" and "/actuator/**" match). */
    static boolean actuator(org.springframework.web.server.ServerWebExchange exchange) {
        var elements = exchange.getRequest().getPath().pathWithinApplication().elements();
        return elements.size() >= 2 && elements.get(1) instanceof org.springframework.http.server.PathContainer.PathSegment
                segment && segment.valueToMatch().equals("actuator");
    }

    /**
     * Who may do what (AccessPolicy): after the security chain found the principal and after a read waited for the
     * principal's own writes, so a resource the caller just created is found when its project is looked up.
     */
    @Bean
    ai.convo.http.access.AccessFilter accessFilter(IdentityStore identities,
                                                  ObjectProvider<ai.convo.http.access.ProjectOf> projects) {
        return new ai.convo.http.access.AccessFilter(new ai.convo.http.access.AccessPolicy(basePath), identities,
                projects.getIfAvailable(() -> (user, variable, id) -> Mono.empty()));
    }

    @Bean
    SecurityWebFilterChain apiSecurity(ServerHttpSecurity http, IdentityStore identities,
                                       ObjectProvider<ai.convo.http.security.LoginGuard> loginGuard,
                                       @Value("${app.security.bearer.jwk-set-uri:}") String bearerJwks,
                                       @Value("${app.security.bearer.public-key:}") String bearerKey,
                                       @Value("${app.security.bearer.issuer:}") String bearerIssuer,
                                       @Value("${app.security.bearer.audience:}") String bearerAudience,
                                       @Value("${app.security.contact-center.jwk-set-uri:}") String ccJwks,
                                       @Value("${app.security.contact-center.public-key:}") String ccKey,
                                       @Value("${app.security.contact-center.issuer:}") String ccIssuer,
                                       @Value("${app.security.contact-center.audience:}") String ccAudience) {
        RoutePolicy policy = new RoutePolicy(basePath);
        ApiAuthenticationFilter authentication = new ApiAuthenticationFilter(policy, identities,
                BearerTokens.decoder(new BearerTokens.Settings(bearerJwks, bearerKey, bearerIssuer, bearerAudience)),
                BearerTokens.decoder(new BearerTokens.Settings(ccJwks, ccKey, ccIssuer, ccAudience)),
                loginGuard.getIfAvailable());
        return http
                // The management endpoints live on a port of their own (management.server.port); on the API port
                // nothing answers there (404), so the API's credentials neither guard nor reach them.
                // (A plain check: Spring Security's composed path matchers cost a Flux and an eagerly formatted debug
                // message per request.)
                .securityMatcher(exchange -> actuator(exchange)
                        ? org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher.MatchResult.notMatch()
                        : org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher.MatchResult.match())
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .requestCache(ServerHttpSecurity.RequestCacheSpec::disable)
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                // The default headers, written by one writer instead of seven (SecurityHeaders says why).
                .headers(ServerHttpSecurity.HeaderSpec::disable)
                .addFilterAt(new HttpHeaderWriterWebFilter(new SecurityHeaders()), SecurityWebFiltersOrder.HTTP_HEADERS_WRITER)
                .addFilterAt(authentication, SecurityWebFiltersOrder.AUTHENTICATION)
                // Public routes are open, every other one needs an authenticated principal. One rule that asks the
                // policy: a public matcher plus anyExchange() cost an "or" matcher (a Flux, and a debug message
                // formatted even with debug off) on every request.
                .authorizeExchange(exchanges -> exchanges.anyExchange().access((principal, context) ->
                        policy.isPublic(context.getExchange().getRequest().getMethod(),
                                context.getExchange().getRequest().getPath().value())
                                ? Mono.just(new org.springframework.security.authorization.AuthorizationDecision(true))
                                : AUTHENTICATED.authorize(principal, context)))
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint((exchange, e) ->
                                ProblemWriter.write(exchange, ApiProblem.unauthorized("Authentication is required.")))
                        .accessDeniedHandler((exchange, e) ->
                                ProblemWriter.write(exchange, ApiProblem.forbidden("You do not have the right to do this."))))
                .build();
    }
}
