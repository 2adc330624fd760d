package ai.convo.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/**
 * The replicas behind each route ({@code upstream://command}, {@code upstream://query}): every request goes to the
 * next healthy one, round robin. A replica is unhealthy from a failed connection or a failed health check (every
 * second, on the given path) until a check passes again; while none is healthy, all are tried. A request whose
 * connection was refused reached no replica, so the route's retry sends it to another one (one it has not tried); a
 * write that reached a replica is never sent again (the routes say which failures are retried).
 */
final class Upstreams implements GlobalFilter, Ordered, SmartLifecycle {

    static final String SCHEME = "upstream";

    /** One replica: its base URI and whether it is taking requests. */
    static final class Instance {
        final URI uri;
        volatile boolean healthy = true;

        Instance(URI uri) {
            this.uri = uri;
        }
    }

    record Pool(List<Instance> instances, String healthPath, AtomicInteger next) {

        Instance choose() {
            return choose(Set.of());
        }

        /**
         * The next healthy replica not yet {@code tried} by this request (a retried read must not meet the replica
         * that just failed it again: other requests move the round robin in between); failing that, any untried one.
         */
        Instance choose(Set<Instance> tried) {
            List<Instance> healthy = instances.stream().filter(i -> i.healthy && !tried.contains(i)).toList();
            List<Instance> from = healthy;
            if (from.isEmpty()) {
                from = instances.stream().filter(i -> !tried.contains(i)).toList();
            }
            if (from.isEmpty()) {
                from = instances;
            }
            return from.get(Math.floorMod(next.getAndIncrement(), from.size()));
        }
    }

    private static final String TRIED = Upstreams.class.getName() + ".tried";
    private final Map<String, Pool> pools;
    private final HttpClient health = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private ScheduledExecutorService checks;

    Upstreams(Map<String, List<URI>> uris, Map<String, String> healthPaths) {
        this.pools = new java.util.HashMap<>();
        uris.forEach((name, list) -> pools.put(name, new Pool(list.stream().map(Instance::new).toList(),
                healthPaths.get(name), new AtomicInteger())));
    }

    Pool pool(String name) {
        return pools.get(name);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        URI url = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR);
        if (url == null || !SCHEME.equals(url.getScheme())) {
            return chain.filter(exchange);
        }
        Pool pool = pools.get(url.getHost());
        // the retry filter runs this again, on the same exchange, for each attempt
        Set<Instance> tried = exchange.getAttributes().containsKey(TRIED) ? exchange.getAttribute(TRIED) : new HashSet<>();
        exchange.getAttributes().put(TRIED, tried);
        Instance chosen = pool.choose(tried);
        tried.add(chosen);
        URI target = UriComponentsBuilder.fromUri(url).scheme(chosen.uri.getScheme()).host(chosen.uri.getHost())
                .port(chosen.uri.getPort()).build(true).toUri();
        exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR, target);
        return chain.filter(exchange).doOnError(error -> {
            for (Throwable t = error; t != null; t = t.getCause()) {
                // refused, reset, or closed before the answer: taken out until its health check passes again
                if (t instanceof IOException) {
                    chosen.healthy = false;
                    return;
                }
            }
        });
    }

    /** After the route's URL is computed (RouteToRequestUrlFilter, 10000), before the request is sent. */
    @Override
    public int getOrder() {
        return 10150;
    }

    private void check(Pool pool) {
        for (Instance instance : pool.instances()) {
            HttpRequest request = HttpRequest.newBuilder(instance.uri.resolve(pool.healthPath()))
                    .timeout(Duration.ofSeconds(2)).GET().build();
            health.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, error) -> instance.healthy = error == null && response.statusCode() == 200);
        }
    }

    @Override
    public synchronized void start() {
        checks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "upstream-health");
            thread.setDaemon(true);
            return thread;
        });
        List<Pool> all = new ArrayList<>(pools.values());
        checks.scheduleWithFixedDelay(() -> all.forEach(this::check), 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public synchronized void stop() {
        if (checks != null) {
            checks.shutdownNow();
            checks = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return checks != null;
    }
}
