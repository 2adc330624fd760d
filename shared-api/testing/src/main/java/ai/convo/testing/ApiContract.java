package ai.convo.testing;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A service's served OpenAPI document, and real requests and answers checked against it: swagger-parser reads the
 * document and says whether it is valid OpenAPI, networknt's JSON Schema validator checks parameters and bodies
 * against its schemas in the OpenAPI 3.1 dialect. What is left here is finding the operation, the status and the
 * media type an exchange is described by.
 */
public final class ApiContract {

    /** One request sent and what the service answered. */
    public record Exchange(String method, String path, Map<String, String> query, Map<String, String> headers,
                           byte[] body, int status, Map<String, List<String>> responseHeaders, byte[] responseBody) {

        /** The same exchange with another answer (a planted mismatch). */
        public Exchange answered(int status, String contentType, byte[] responseBody) {
            return new Exchange(method, path, query, headers, body, status,
                    Map.of("Content-Type", List.of(contentType)), responseBody);
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static final String DOCUMENT = "https://api.invalid/openapi.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    public final String json;
    private final JsonNode tree;
    private final SwaggerParseResult parsed;
    private final SchemaRegistry schemas;
    private final String origin;

    private ApiContract(String origin, String json) {
        this.origin = origin;
        this.json = json;
        this.tree = JSON.readTree(json);
        this.parsed = new OpenAPIV3Parser().readContents(json, null, new ParseOptions());
        this.schemas = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(),
                builder -> builder.schemas(Map.of(DOCUMENT, json)));
    }

    /** The document the service on {@code port} serves at {@code basePath}/openapi.json. */
    public static ApiContract served(int port, String basePath) {
        String origin = "http://localhost:" + port;
        Exchange document = send(origin, "GET", basePath + "/openapi.json", Map.of(), Map.of(), null);
        if (document.status() != 200) {
            throw new AssertionError("GET " + basePath + "/openapi.json answered " + document.status());
        }
        return new ApiContract(origin, new String(document.responseBody(), StandardCharsets.UTF_8));
    }

    /** What the parser found wrong with the document (nothing, for a valid one). */
    public List<String> parserMessages() {
        return parsed.getMessages() == null ? List.of() : parsed.getMessages();
    }

    public OpenAPI openApi() {
        return parsed.getOpenAPI();
    }

    /** Every operation of the document as "METHOD path". */
    public TreeSet<String> operations() {
        TreeSet<String> operations = new TreeSet<>();
        parsed.getOpenAPI().getPaths().forEach((path, item) -> item.readOperationsMap()
                .forEach((method, operation) -> operations.add(method.name() + " " + path)));
        return operations;
    }

    /** Sends a request to the service; {@code path} includes the base path. */
    public Exchange send(String method, String path, Map<String, String> query, Map<String, String> headers,
                         byte[] body) {
        return send(origin, method, path, query, headers, body);
    }

    private static Exchange send(String origin, String method, String path, Map<String, String> query,
                                 Map<String, String> headers, byte[] body) {
        StringBuilder uri = new StringBuilder(origin).append(path);
        String separator = "?";
        for (Map.Entry<String, String> parameter : query.entrySet()) {
            uri.append(separator).append(parameter.getKey()).append('=')
                    .append(java.net.URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
            separator = "&";
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri.toString()))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Exchange(method, path, query, headers, body, response.statusCode(),
                    response.headers().map(), response.body());
        } catch (IOException e) {
            throw new AssertionError(method + " " + uri + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** What is wrong with the request and the answer, per the document; empty when they match. */
    public List<String> mismatches(Exchange exchange) {
        List<String> found = new ArrayList<>();
        String where = exchange.method() + " " + exchange.path() + " -> " + exchange.status() + ": ";
        String template = template(exchange.path());
        JsonNode operation = template == null ? null
                : tree.path("paths").path(template).get(exchange.method().toLowerCase(java.util.Locale.ROOT));
        if (operation == null) {
            return List.of(where + "no operation of the document is " + exchange.method() + " " + exchange.path());
        }
        String at = "/paths/" + escape(template) + "/" + exchange.method().toLowerCase(java.util.Locale.ROOT);
        // the request: its parameters, then its body
        JsonNode parameters = operation.path("parameters");
        for (int i = 0; i < parameters.size(); i++) {
            JsonNode parameter = parameters.get(i);
            String value = parameter.path("in").asString().equals("query")
                    ? exchange.query().get(parameter.path("name").asString()) : null;
            if (value == null) {
                if (parameter.path("in").asString().equals("query") && parameter.path("required").asBoolean()) {
                    found.add(where + "request: required query parameter " + parameter.path("name").asString() + " is missing");
                }
                continue;
            }
            JsonNode typed = value.matches("-?\\d{1,18}") ? JsonNodeFactory.instance.numberNode(Long.parseLong(value))
                    : JsonNodeFactory.instance.stringNode(value);
            check(found, where + "request: query parameter " + parameter.path("name").asString(),
                    at + "/parameters/" + i + "/schema", typed);
        }
        JsonNode requestBody = resolve(operation.path("requestBody"));
        String requestType = header(exchange.headers(), "Content-Type");
        if (exchange.body() != null && exchange.body().length > 0) {
            if (requestBody.isMissingNode()) {
                found.add(where + "request: a body is not described");
            } else {
                String key = mediaKey(requestBody.path("content"), requestType);
                if (key == null) {
                    found.add(where + "request: Content-Type " + requestType + " is not one of "
                            + names(requestBody.path("content")));
                } else if (isJson(key)) {
                    check(found, where + "request body", at + "/requestBody/content/" + escape(key) + "/schema",
                            JSON.readTree(exchange.body()));
                }
            }
        } else if (requestBody.path("required").asBoolean()) {
            found.add(where + "request: the body is required");
        }
        // the answer: its status, media type and body
        String status = String.valueOf(exchange.status());
        JsonNode responses = operation.path("responses");
        String statusKey = responses.has(status) ? status : responses.has("default") ? "default" : null;
        if (statusKey == null) {
            found.add(where + "answer: status " + status + " is not described");
            return found;
        }
        JsonNode response = resolve(responses.get(statusKey));
        String responseAt = responses.get(statusKey).has("$ref")
                ? responses.get(statusKey).get("$ref").asString().substring(1) : at + "/responses/" + statusKey;
        boolean hasBody = exchange.responseBody() != null && exchange.responseBody().length > 0
                && !exchange.method().equals("HEAD");
        if (!hasBody) {
            return found;
        }
        if (!response.has("content")) {
            found.add(where + "answer: a body is not described for " + statusKey);
            return found;
        }
        List<String> contentTypes = exchange.responseHeaders().entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase("Content-Type")).flatMap(e -> e.getValue().stream()).toList();
        String responseType = contentTypes.isEmpty() ? null : contentTypes.get(0);
        String key = mediaKey(response.path("content"), responseType);
        if (key == null) {
            found.add(where + "answer: Content-Type " + responseType + " is not one of " + names(response.path("content")));
        } else if (isJson(key)) {
            check(found, where + "answer body", responseAt + "/content/" + escape(key) + "/schema",
                    JSON.readTree(exchange.responseBody()));
        }
        return found;
    }

    private void check(List<String> found, String what, String pointer, JsonNode value) {
        Schema schema = schemas.getSchema(SchemaLocation.of(DOCUMENT + "#" + pointer));
        schema.validate(value).forEach(error -> found.add(what + " " + error.getInstanceLocation() + ": "
                + error.getMessage()));
    }

    /** The document's path template that describes {@code path}: a literal one before one with variables. */
    private String template(String path) {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String template : (Iterable<String>) tree.path("paths").propertyNames()::iterator) {
            String regex = "\\Q" + template.replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q") + "\\E";
            int variables = template.split("\\{", -1).length - 1;
            if (Pattern.matches(regex, path) && variables < fewest) {
                best = template;
                fewest = variables;
            }
        }
        return best;
    }

    private JsonNode resolve(JsonNode node) {
        return node.has("$ref") ? tree.at(node.get("$ref").asString().substring(1)) : node;
    }

    private static String mediaKey(JsonNode content, String contentType) {
        if (contentType == null) {
            return null;
        }
        MediaType actual = MediaType.parseMediaType(contentType);
        for (String key : (Iterable<String>) content.propertyNames()::iterator) {
            MediaType described = MediaType.parseMediaType(key);
            if (described.getType().equalsIgnoreCase(actual.getType())
                    && described.getSubtype().equalsIgnoreCase(actual.getSubtype())) {
                return key;
            }
        }
        return null;
    }

    private static boolean isJson(String mediaType) {
        MediaType type = MediaType.parseMediaType(mediaType);
        return type.getSubtype().equals("json") || type.getSubtype().endsWith("+json");
    }

    private static List<String> names(JsonNode content) {
        List<String> names = new ArrayList<>();
        content.propertyNames().forEach(names::add);
        return names;
    }

    private static String header(Map<String, String> headers, String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    /** A JSON pointer's escaping of one token. */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
