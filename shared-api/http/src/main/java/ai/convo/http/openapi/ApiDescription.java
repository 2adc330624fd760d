package ai.convo.http.openapi;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.security.AuthScheme;
import ai.convo.http.security.RoutePolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * The OpenAPI 3.1 document of a service, built from its route table (the annotated handler mappings), its
 * authentication policy, the handlers' signatures and what the service's {@link OperationFacts} add. Nothing in it
 * is written per route by hand, so a new route is described the day it is added.
 */
public final class ApiDescription {

    static final String PROBLEM = "Problem";
    public static final String LIST_ENVELOPE = "ListEnvelope";
    private static final Pattern VARIABLE = Pattern.compile("\\{\\*?([^}:]+)(?::[^}]*)?}");
    private static final List<String> ERRORS = List.of("400", "401", "403", "404", "406", "409", "413", "415",
            "429", "503");
    private static final Map<AuthScheme, String> SCHEMES = Map.of(AuthScheme.API_KEY_HEADER, "apiKeyHeader",
            AuthScheme.API_KEY_QUERY, "apiKeyQuery", AuthScheme.CONTACT_CENTER, "contactCenter",
            AuthScheme.BASIC, "basic", AuthScheme.BEARER, "bearer");

    private ApiDescription() {
    }

    /** One operation of the route table: an HTTP method and its path as OpenAPI writes it. */
    public record Route(String method, String path) {
    }

    /**
     * Every route of the mappings, once per method (a mapping without methods counts as GET), with the path as
     * OpenAPI writes it ({@link #pathOf}).
     */
    public static List<Route> routes(Collection<RequestMappingHandlerMapping> mappings) {
        List<Route> routes = new ArrayList<>();
        for (RequestMappingHandlerMapping mapping : mappings) {
            mapping.getHandlerMethods().forEach((info, handler) -> eachRoute(info, (method, pattern) -> {
                Route route = new Route(method, pathOf(pattern));
                if (!routes.contains(route)) {
                    routes.add(route);
                }
            }));
        }
        return routes;
    }

    /** A Spring path pattern as an OpenAPI path: {@code {name:regex}} and {@code {*name}} become {@code {name}}. */
    public static String pathOf(String pattern) {
        return VARIABLE.matcher(pattern).replaceAll("{$1}");
    }

    private interface RouteConsumer {
        void accept(String method, String pattern);
    }

    private static void eachRoute(RequestMappingInfo info, RouteConsumer consumer) {
        var methods = info.getMethodsCondition().getMethods();
        for (var pattern : info.getPatternsCondition().getPatterns()) {
            if (methods.isEmpty()) {
                consumer.accept("GET", pattern.getPatternString());
            }
            methods.forEach(m -> consumer.accept(m.name(), pattern.getPatternString()));
        }
    }

    /** The document of the routes of {@code mappings}, as maps and lists ready to be written as JSON. */
    public static Map<String, Object> build(String title, String version, String basePath,
                                            Collection<RequestMappingHandlerMapping> mappings,
                                            List<OperationFacts> facts) {
        String base = basePath == null || basePath.equals("/") ? "" : basePath;
        RoutePolicy policy = new RoutePolicy(base);
        ClientOperations client = ClientOperations.load();
        Map<String, Object> components = components();
        Map<String, Map<String, Object>> paths = new TreeMap<>();
        for (RequestMappingHandlerMapping mapping : mappings) {
            mapping.getHandlerMethods().forEach((info, handler) -> eachRoute(info, (method, pattern) -> {
                String path = pathOf(pattern);
                Map<String, Object> item = paths.computeIfAbsent(path, p -> new TreeMap<>());
                String key = method.toLowerCase(java.util.Locale.ROOT);
                if (item.containsKey(key)) {
                    return;
                }
                String below = path.startsWith(base + "/") ? path.substring(base.length()) : path;
                Map<String, Object> operation = operation(method, path, below, info, handler, policy, client);
                facts.forEach(f -> f.describe(handler, method, pattern, operation, components));
                item.put(key, operation);
            }));
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("openapi", "3.1.0");
        document.put("info", Map.of("title", title, "version", version,
                "description", "Generated from the service's routes (ai.convo.http.openapi.ApiDescription)."));
        document.put("paths", paths);
        document.put("components", components);
        return document;
    }

    private static Map<String, Object> operation(String method, String path, String below, RequestMappingInfo info,
                                                 HandlerMethod handler, RoutePolicy policy, ClientOperations client) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("operationId", client.nameOf(method, below).orElseGet(() -> generatedId(method, below)));
        operation.put("tags", List.of(tag(below)));
        List<Map<String, Object>> parameters = new ArrayList<>();
        Matcher variables = VARIABLE.matcher(path);
        while (variables.find()) {
            parameters.add(parameter(variables.group(1), "path", true, Map.of("type", "string")));
        }
        boolean body = false;
        boolean bodyRequired = false;
        for (MethodParameter parameter : handler.getMethodParameters()) {
            parameter.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
            RequestParam query = parameter.getParameterAnnotation(RequestParam.class);
            RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
            RequestBody requestBody = parameter.getParameterAnnotation(RequestBody.class);
            if (query != null) {
                parameters.add(parameter(name(query.name(), parameter), "query", query.required(),
                        Map.of("type", "string")));
            } else if (header != null) {
                parameters.add(parameter(name(header.name(), parameter), "header", header.required(),
                        Map.of("type", "string")));
            } else if (requestBody != null) {
                body = true;
                bodyRequired = requestBody.required();
            }
        }
        if (!parameters.isEmpty()) {
            operation.put("parameters", parameters);
        }
        BodyMedia bodyMedia = handler.getMethodAnnotation(BodyMedia.class);
        Set<MediaType> consumes = info.getConsumesCondition().getConsumableMediaTypes();
        if (body || bodyMedia != null || !consumes.isEmpty()) {
            List<String> types = bodyMedia != null ? List.of(bodyMedia.value())
                    : consumes.isEmpty() ? List.of(MediaType.APPLICATION_JSON_VALUE)
                    : consumes.stream().map(MediaType::toString).toList();
            Map<String, Object> content = new LinkedHashMap<>();
            types.forEach(type -> content.put(type, Map.of("schema", Map.of())));
            operation.put("requestBody", Map.of("required", bodyRequired || bodyMedia != null, "content", content));
        }
        operation.put("responses", responses(method, info, handler.getMethodAnnotation(AnswerMedia.class),
                policy.isPublic(HttpMethod.valueOf(method), path), body || bodyMedia != null || !consumes.isEmpty()));
        operation.put("security", policy.isPublic(HttpMethod.valueOf(method), path) ? List.of()
                : policy.allowed(HttpMethod.valueOf(method), path).stream()
                        .map(scheme -> Map.of(SCHEMES.get(scheme), List.of())).toList());
        return operation;
    }

    /**
     * Makes {@code operation} a list's (ListRequest's parameters, the envelope of Representation.Page as its JSON and
     * HAL answer) sortable by {@code sortable}.
     */
    public static void describeList(Map<String, Object> operation, Set<String> sortable) {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> parameters = (List<Map<String, Object>>) operation.computeIfAbsent("parameters",
                k -> new ArrayList<>());
        String cursor = "a cursor of 24 characters [a-z0-9] from an earlier page's ";
        parameters.add(described(parameter("limit", "query", false, Map.of("type", "integer", "minimum", 1,
                "maximum", ListRequest.MAX_LIMIT, "default", ListRequest.DEFAULT_LIMIT)), "Items per page."));
        parameters.add(described(parameter("skip", "query", false, Map.of("type", "integer", "minimum", 0)),
                "Items to skip; not with a cursor."));
        parameters.add(described(parameter("filter", "query", false, Map.of("type", "string",
                "maxLength", ListRequest.MAX_FILTER)), "A case-insensitive part of the name."));
        parameters.add(described(parameter("sort", "query", false, Map.of("type", "string")),
                "field:asc or field:desc, several separated by commas; sortable fields: "
                        + String.join(", ", new java.util.TreeSet<>(sortable)) + "."));
        parameters.add(described(parameter("next", "query", false, Map.of("type", "string",
                "pattern", "^[a-z0-9]{24}$")), cursor + "nextCursor."));
        parameters.add(described(parameter("previous", "query", false, Map.of("type", "string",
                "pattern", "^[a-z0-9]{24}$")), cursor + "previousCursor."));
        Map<String, Object> envelope = Map.of("schema", Map.of("$ref", "#/components/schemas/" + LIST_ENVELOPE));
        @SuppressWarnings("unchecked")
        Map<String, Object> responses = (Map<String, Object>) operation.get("responses");
        @SuppressWarnings("unchecked")
        Map<String, Object> content = new LinkedHashMap<>(
                (Map<String, Object>) ((Map<String, Object>) responses.get("200")).get("content"));
        content.put(ApiMedia.JSON.type().toString(), envelope);
        content.put(ApiMedia.HAL.type().toString(), envelope);
        responses.put("200", Map.of("description", "One page of the list.", "content", content));
    }

    private static Map<String, Object> described(Map<String, Object> parameter, String description) {
        parameter.put("description", description);
        return parameter;
    }

    private static String name(String declared, MethodParameter parameter) {
        return declared.isEmpty() ? parameter.getParameterName() : declared;
    }

    private static Map<String, Object> parameter(String name, String in, boolean required, Map<String, Object> schema) {
        Map<String, Object> parameter = new LinkedHashMap<>();
        parameter.put("name", name);
        parameter.put("in", in);
        parameter.put("required", required);
        parameter.put("schema", schema);
        return parameter;
    }

    /** The success statuses the API answers to a method (its conventions: docs/api-decisions), then problems. */
    private static Map<String, Object> responses(String method, RequestMappingInfo info, AnswerMedia answers,
                                                 boolean open, boolean body) {
        Set<MediaType> produces = info.getProducesCondition().getProducibleMediaTypes();
        Map<String, Object> content = new LinkedHashMap<>();
        if (answers != null) {
            for (String type : answers.value()) {
                content.put(type, Map.of("schema", Map.of("type", "string")));
            }
        } else if (produces.isEmpty()) {
            for (ApiMedia media : ApiMedia.values()) {
                content.put(media.type().toString(), Map.of("schema",
                        media == ApiMedia.JSON || media == ApiMedia.HAL ? Map.of() : Map.of("type", "string")));
            }
        } else {
            produces.forEach(type -> content.put(type.toString(), Map.of("schema", Map.of())));
        }
        List<String> successes = switch (method) {
            case "GET", "HEAD" -> List.of("200");
            case "POST" -> List.of("200", "201", "202");
            case "DELETE" -> List.of("200", "202", "204");
            default -> List.of("200", "202");
        };
        Map<String, Object> responses = new LinkedHashMap<>();
        for (String status : successes) {
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("description", status.equals("204") ? "Done; no body." : "Success.");
            if (!status.equals("204") && !method.equals("HEAD")) {
                response.put("content", content);
            }
            responses.put(status, response);
        }
        for (String status : ERRORS) {
            if (open && (status.equals("401") || status.equals("403"))
                    || !body && (status.equals("413") || status.equals("415"))) {
                continue;
            }
            // a route that says what it produces (the health checks) says "not ready" in it too
            responses.put(status, status.equals("503") && !produces.isEmpty()
                    ? Map.of("description", "Not available.", "content", content)
                    : Map.of("$ref", "#/components/responses/" + PROBLEM));
        }
        responses.put("default", Map.of("$ref", "#/components/responses/" + PROBLEM));
        return responses;
    }

    private static Map<String, Object> components() {
        Map<String, Object> schemas = new TreeMap<>();
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "object");
        problem.put("description", "An RFC 7807 problem: what was wrong and what is allowed.");
        problem.put("required", List.of("type", "title", "status", "detail", "instance", "code", "traceId", "details"));
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("type", Map.of("type", "string"));
        properties.put("title", Map.of("type", "string"));
        properties.put("status", Map.of("type", "integer", "minimum", 400, "maximum", 599));
        properties.put("detail", Map.of("type", "string"));
        properties.put("instance", Map.of("type", "string"));
        properties.put("code", Map.of("type", "string", "description", "The specification's error code."));
        properties.put("traceId", Map.of("type", "string", "description", "Also the X-Trace-Id header."));
        properties.put("details", Map.of("type", "object", "description", "Every bad field or parameter."));
        properties.put("logLevel", Map.of("type", "string"));
        problem.put("properties", properties);
        schemas.put(PROBLEM, problem);

        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("type", "object");
        envelope.put("description", "One page of a list; a cursor is null where there is no such page.");
        envelope.put("required", List.of("items", "total", "nextCursor", "previousCursor"));
        envelope.put("properties", Map.of(
                "items", Map.of("type", "array", "items", Map.of("type", "object")),
                "total", Map.of("type", "integer", "minimum", 0),
                "nextCursor", Map.of("type", List.of("string", "null")),
                "previousCursor", Map.of("type", List.of("string", "null"))));
        schemas.put(LIST_ENVELOPE, envelope);

        Map<String, Object> problemContent = Map.of(
                "application/problem+json", Map.of("schema", Map.of("$ref", "#/components/schemas/" + PROBLEM)),
                "application/problem+xml", Map.of("schema", Map.of("type", "string")));
        Map<String, Object> components = new LinkedHashMap<>();
        components.put("schemas", schemas);
        components.put("responses", Map.of(PROBLEM, Map.of("description",
                "A problem body (RFC 7807), as JSON or, when asked for, XML.", "content", problemContent)));
        components.put("securitySchemes", Map.of(
                "apiKeyHeader", Map.of("type", "apiKey", "in", "header", "name", "X-API-Key"),
                "apiKeyQuery", Map.of("type", "apiKey", "in", "query", "name", "api_key"),
                "contactCenter", Map.of("type", "apiKey", "in", "header", "name", "x-contactcenter-authorization",
                        "description", "Bearer followed by a JWT of the contact center's issuer."),
                "basic", Map.of("type", "http", "scheme", "basic"),
                "bearer", Map.of("type", "http", "scheme", "bearer", "bearerFormat", "JWT")));
        return components;
    }

    /** The first literal segment after the version ("projects", "flows"), or the first one. */
    private static String tag(String below) {
        String[] segments = below.split("/");
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (!segment.isEmpty() && !segment.startsWith("{") && !segment.matches("v\\d+\\.\\d+")
                    && !segment.equals("management")) {
                return segment;
            }
        }
        return "service";
    }

    /** For an operation the official client does not call: the method and the path in camel case. */
    static String generatedId(String method, String below) {
        StringBuilder id = new StringBuilder(method.toLowerCase(java.util.Locale.ROOT));
        for (String segment : below.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            boolean variable = segment.startsWith("{");
            String word = segment.replaceAll("[^A-Za-z0-9]", "");
            if (word.isEmpty()) {
                continue;
            }
            id.append(variable ? "By" : "").append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return id.toString();
    }
}
