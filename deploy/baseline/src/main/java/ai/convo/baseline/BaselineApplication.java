package ai.convo.baseline;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The yardstick of the list benchmarks: the same server stack (Spring WebFlux on Netty) doing no work but
 * answering a fixed 1 KB JSON. Ratios against it are stable on a shared, noisy machine; absolute numbers are not.
 * With {@code baseline.secured=true} the same answer sits behind a Spring Security chain whose only rule is an
 * X-API-Key compared with a constant: the floor under any authenticated route of this stack, before any work of ours.
 * {@code baseline.body-bytes} sizes the answer (a list page's size, for the floor under a cached list), and
 * {@code baseline.page-database} adds the floor under an uncached list (see {@link Page}).
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration"})
@RestController
public class BaselineApplication {

    /** The fixed answer: about {@code baseline.body-bytes} bytes of JSON (1,000 unless set). */
    static final byte[] BODY = body(Integer.getInteger("baseline.body-bytes", 1000));

    public static void main(String[] args) {
        SpringApplication.run(BaselineApplication.class, args);
    }

    @GetMapping("/fixed")
    public Mono<ResponseEntity<byte[]>> fixed() {
        return Mono.just(ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(BODY));
    }

    static byte[] body(int bytes) {
        StringBuilder json = new StringBuilder("{\"items\":[");
        int i = 0;
        while (json.length() < bytes) {
            json.append(i == 0 ? "" : ",").append("{\"_id\":\"").append(String.format("%024x", i))
                    .append("\",\"name\":\"item ").append(i).append("\"}");
            i++;
        }
        json.append("],\"total\":").append(i).append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * With {@code baseline.page-database} (host:port/database/user): {@code GET /page?org=&project=} reads one page of
     * a project's tokens over R2DBC, rows and total in one statement, and renders it with Jackson: the least an
     * uncached list of this stack can do, without tenancy checks, read-your-writes, cursors or negotiation.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty("baseline.page-database")
    @RestController
    static class Page {

        private static final String SQL = "SELECT count(*) OVER () AS total, * FROM token_view WHERE organisation_id = "
                + ":org AND project_id = :project AND NOT is_default ORDER BY created_at, id LIMIT 25";
        private static final JsonMapper JSON = JsonMapper.builder().build();
        private final DatabaseClient db;

        Page(@Value("${baseline.page-database}") String database) {
            String[] parts = database.split("[:/]"); // host, port, database, user
            var connections = new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
                    .host(parts[0]).port(Integer.parseInt(parts[1])).database(parts[2]).username(parts[3]).build());
            // the pool size the query service has by default
            this.db = DatabaseClient.create(new ConnectionPool(
                    ConnectionPoolConfiguration.builder(connections).maxSize(10).build()));
        }

        @GetMapping("/page")
        public Mono<ResponseEntity<byte[]>> page(@RequestParam String org, @RequestParam String project) {
            long[] total = {0};
            return db.sql(SQL).bind("org", org).bind("project", project).map(row -> {
                total[0] = row.get("total", Long.class);
                var item = new LinkedHashMap<String, Object>();
                item.put("_id", row.get("id", String.class));
                item.put("label", row.get("label", String.class));
                item.put("type", row.get("token_type", String.class));
                item.put("script", row.get("script", String.class));
                item.put("referenceId", row.get("reference_id", String.class));
                item.put("createdAt", row.get("created_at", Long.class));
                item.put("lastChanged", row.get("last_changed", Long.class));
                item.put("createdBy", row.get("created_by", String.class));
                item.put("lastChangedBy", row.get("last_changed_by", String.class));
                return item;
            }).all().collectList().map(items -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                    .body(JSON.writeValueAsBytes(Map.of("items", items, "total", total[0]))));
        }
    }

    /** The chain the services configure, less everything of ours: no identity store, firewall or policy. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty("baseline.secured")
    @EnableWebFluxSecurity
    static class Secured {

        @Bean
        static SecurityObservationSettings securityObservations() {
            return SecurityObservationSettings.noObservations(); // as the services have it
        }

        @Bean
        SecurityWebFilterChain chain(ServerHttpSecurity http) {
            String key = System.getenv().getOrDefault("API_KEY", "baseline");
            var principal = new UsernamePasswordAuthenticationToken("baseline", null,
                    AuthorityUtils.createAuthorityList("USER"));
            WebFilter apiKey = (exchange, chain) -> key.equals(exchange.getRequest().getHeaders().getFirst("X-API-Key"))
                    ? chain.filter(exchange).contextWrite(ReactiveSecurityContextHolder.withAuthentication(principal))
                    : chain.filter(exchange);
            return http.csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                    .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                    .logout(ServerHttpSecurity.LogoutSpec::disable)
                    .requestCache(ServerHttpSecurity.RequestCacheSpec::disable)
                    .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                    .addFilterAt(apiKey, SecurityWebFiltersOrder.AUTHENTICATION)
                    .authorizeExchange(exchanges -> exchanges.anyExchange().authenticated())
                    .build();
        }
    }
}
