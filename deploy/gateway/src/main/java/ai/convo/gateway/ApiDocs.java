package ai.convo.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API's description at the one base URL: {@code /new/openapi.json} is the command service's and the query
 * service's own documents (each generated from its routes) merged, asked for from a replica of each on every
 * request; {@code /new/docs/} is swagger-ui, from the webjar in this jar, showing it.
 */
final class ApiDocs {

    static final String DOCUMENT = "/new/openapi.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Upstreams upstreams;
    private final WebClient client = WebClient.create();

    ApiDocs(Upstreams upstreams) {
        this.upstreams = upstreams;
    }

    RouterFunction<ServerResponse> routes() {
        ClassPathResource page = new ClassPathResource("ai/convo/gateway/docs/index.html");
        ClassPathResource initializer = new ClassPathResource("ai/convo/gateway/docs/initializer.js");
        return RouterFunctions.route()
                .GET(DOCUMENT, request -> merged().flatMap(document -> ServerResponse.ok()
                        .contentType(MediaType.APPLICATION_JSON).bodyValue(document)))
                .GET("/new/docs", request -> ServerResponse.permanentRedirect(URI.create("/new/docs/")).build())
                .GET("/new/docs/", request -> ServerResponse.ok().contentType(MediaType.TEXT_HTML).bodyValue(page))
                .GET("/new/docs/initializer.js", request -> ServerResponse.ok()
                        .contentType(MediaType.parseMediaType("text/javascript")).bodyValue(initializer))
                .build()
                .and(RouterFunctions.resources("/new/docs/**",
                        new ClassPathResource("META-INF/resources/webjars/swagger-ui/" + swaggerUiVersion() + "/")));
    }

    /** Both services' documents as one: their paths (a path both serve gets both's methods) and components. */
    Mono<byte[]> merged() {
        return Mono.zip(part("command"), part("query")).map(parts -> JSON.writeValueAsBytes(merge(parts.getT1(),
                parts.getT2())));
    }

    static JsonNode merge(JsonNode first, JsonNode second) {
        ObjectNode merged = (ObjectNode) first.deepCopy();
        ObjectNode paths = merged.withObject("/paths");
        second.path("paths").properties().forEach(path -> {
            ObjectNode item = paths.withObject("/" + escape(path.getKey()));
            path.getValue().properties().forEach(operation -> item.putIfAbsent(operation.getKey(), operation.getValue()));
        });
        for (String section : List.of("schemas", "responses", "securitySchemes")) {
            ObjectNode into = merged.withObject("/components/" + section);
            second.path("components").path(section).properties().forEach(e -> into.putIfAbsent(e.getKey(), e.getValue()));
        }
        return merged;
    }

    private Mono<JsonNode> part(String side) {
        URI base = upstreams.pool(side).choose().uri;
        return client.get().uri(base.resolve(DOCUMENT)).retrieve().bodyToMono(byte[].class)
                .timeout(Duration.ofSeconds(10)).map(JSON::readTree);
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String swaggerUiVersion() {
        Properties properties = new Properties();
        try (InputStream in = ApiDocs.class.getResourceAsStream("/META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}
