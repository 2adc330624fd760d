package ai.convo.gateway;

import java.util.Optional;

import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.WebHandler;

import reactor.core.publisher.Mono;

/**
 * WebFlux answers CORS preflights itself (DispatcherHandler and the handler mapping reply with an empty response and
 * no CORS headers, so browsers fail). The services own CORS, so preflights are routed like any other OPTIONS request:
 * this mapping skips the CORS step for them, and {@link #preflightFilter()} invokes the route before the dispatcher.
 */
class PreflightForwardingHandlerMapping extends RoutePredicateHandlerMapping {

    PreflightForwardingHandlerMapping(FilteringWebHandler webHandler, RouteLocator routeLocator,
                                      GlobalCorsProperties globalCorsProperties, Environment environment) {
        super(webHandler, routeLocator, globalCorsProperties, environment);
    }

    @Override
    public Mono<Object> getHandler(ServerWebExchange exchange) {
        if (CorsUtils.isPreFlightRequest(exchange.getRequest())) {
            return getHandlerInternal(exchange).map(Object.class::cast);
        }
        return super.getHandler(exchange);
    }

    WebFilter preflightFilter() {
        return new PreflightFilter();
    }

    private final class PreflightFilter implements WebFilter, Ordered {

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }

        @Override
        public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
            if (!CorsUtils.isPreFlightRequest(exchange.getRequest())) {
                return chain.filter(exchange);
            }
            return getHandler(exchange)
                    .map(Optional::of)
                    .defaultIfEmpty(Optional.empty())
                    .flatMap(handler -> handler.isPresent()
                            ? ((WebHandler) handler.get()).handle(exchange)
                            : chain.filter(exchange));
        }
    }
}
