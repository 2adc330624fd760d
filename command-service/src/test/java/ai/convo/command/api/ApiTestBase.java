package ai.convo.command.api;

import ai.convo.command.CommandServiceApplication;
import ai.convo.testing.HangWatch;
import ai.convo.testing.ServiceProperties;
import ai.convo.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import io.r2dbc.pool.ConnectionPool;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The command service on a random port, over real HTTP, with the real security chain, against a real
 * PostgreSQL. The bootstrap creates a system administrator whose API key is {@link #ADMIN_KEY}.
 */
@SpringBootTest(classes = CommandServiceApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// Contexts share one database and all keep running: only the knowledge tests' context ingests, so pausing its
// worker really holds a source in ingesting.
@TestPropertySource(properties = "app.knowledge.ingestion.enabled=false")
@Tag("integration")
public abstract class ApiTestBase {

    static final TestDatabase.Settings DB = TestDatabase.newDatabase();
    static final String ADMIN_EMAIL = "root@example.com";
    static final String ADMIN_PASSWORD = "root-password-1";
    static final String ADMIN_KEY = "0123456789abcdef0123456789abcdef0123456789abcdef";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceProperties.of(DB, registry::add);
        // A lock a test can see before it ends, however slow the machine (production: 1 s, doubling).
        registry.add("app.security.login.lock-unit", () -> "60s");
        registry.add("BOOTSTRAP_ADMIN_EMAIL", () -> ADMIN_EMAIL);
        registry.add("BOOTSTRAP_ADMIN_PASSWORD", () -> ADMIN_PASSWORD);
        registry.add("BOOTSTRAP_API_KEY", () -> ADMIN_KEY);
        // Every aggregate with a few events is snapshotted, so the whole suite also runs on loads from snapshots.
        registry.add("app.aggregates.snapshot-threshold", () -> "3");
        // url sources may fetch from the tests' own loopback servers by this name only (127.0.0.1 stays refused).
        registry.add("app.knowledge.url.allowed-hosts", () -> "localhost");
        // Functions may call back into a loopback server of the test; hostile code meets its limits within a second.
        registry.add("app.functions.allowed-hosts", () -> "127.0.0.1");
        registry.add("app.functions.max-statements", () -> "20000000");
        registry.add("app.functions.max-allocated-mb", () -> "64");
    }

    @Autowired
    Environment environment;
    @Autowired
    JdbcTemplate jdbc;

    WebTestClient http;

    @BeforeEach
    void client() {
        http = WebTestClient.bindToServer()
                .baseUrl("http://localhost:" + environment.getProperty("local.server.port") + "/new")
                .responseTimeout(Duration.ofSeconds(30))
                .filter(HangWatch.reportUnanswered(() -> HangWatch.databaseState(pool, dataSource)))
                .codecs(c -> c.defaultCodecs().maxInMemorySize(4 * 1024 * 1024))
                .build();
    }

    @Autowired
    ConnectionPool pool;
    @Autowired
    DataSource dataSource;

    static String basic(String email, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((email + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    String adminUserId() {
        return jdbc.queryForObject("SELECT id FROM identity_user WHERE email = ?", String.class, ADMIN_EMAIL);
    }

    long eventCount() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry", Long.class);
        return count == null ? 0 : count;
    }

    /** Creates a project as the bootstrap admin and answers its JSON. */
    @SuppressWarnings("unchecked")
    Map<String, Object> createProject(String apiKey, String name, String language) {
        return http.post().uri("/v2.0/projects")
                .header("X-API-Key", apiKey)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", name, "locale", language))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> createLocale(String apiKey, Map<String, Object> body) {
        return http.post().uri("/v2.0/locales")
                .header("X-API-Key", apiKey)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    /** A second organisation with its admin, who gets an API key through Basic authentication. */
    @SuppressWarnings("unchecked")
    String otherOrganisationKey(String email) {
        http.post().uri("/management/v2.0/organisations")
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Other " + email, "adminEmail", email, "adminPassword", "password-" + email))
                .exchange()
                .expectStatus().isCreated();
        Map<String, Object> key = http.post().uri("/v2.0/users/me/apikeys")
                .header("Authorization", basic(email, "password-" + email))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
        return (String) key.get("key");
    }
}
