package ai.convo.baseline;

import java.nio.charset.StandardCharsets;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
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
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;

/**
 * The yardstick of the list benchmarks: the same server stack (Spring WebFlux on Netty) doing no work but
 * answering a fixed 1 KB JSON. Ratios against it are stable on a shared, noisy machine; absolute numbers are not.
 * With {@code baseline.secured=true} the same answer sits behind a Spring Security chain whose only rule is an
 * X-API-Key compared with a constant: the floor under any authenticated route of this stack, before any work of ours.
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration"})
@RestController
public class BaselineApplication {

    static final byte[] BODY = body();

    public static void main(String[] args) {
        SpringApplication.run(BaselineApplication.class, args);
    }

    @GetMapping("/fixed")
    public Mono<ResponseEntity<byte[]>> fixed() {
        return Mono.just(ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(BODY));
    }

    static byte[] body() {
        StringBuilder json = new StringBuilder("{\"items\":[");
        int i = 0;
        while (json.length() < 1000) {
            json.append(i == 0 ? "" : ",").append("{\"_id\":\"").append(String.format("%024x", i))
                    .append("\",\"name\":\"item ").append(i).append("\"}");
            i++;
        }
        json.append("],\"total\":").append(i).append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
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
