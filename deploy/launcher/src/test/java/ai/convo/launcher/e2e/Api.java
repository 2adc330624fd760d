package ai.convo.launcher.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client of the API, as a script would use it. */
final class Api {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Answer(int status, JsonNode body, HttpResponse<String> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private final String baseUrl;
    private final String authHeader;
    private final String authValue;

    private Api(String baseUrl, String authHeader, String authValue) {
        this.baseUrl = baseUrl;
        this.authHeader = authHeader;
        this.authValue = authValue;
    }

    static Api withKey(String baseUrl, String key) {
        return new Api(baseUrl, "X-API-Key", key);
    }

    static Api withBasic(String baseUrl, String email, String password) {
        return new Api(baseUrl, "Authorization", "Basic " + Base64.getEncoder()
                .encodeToString((email + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    Answer send(String method, String path, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header(authHeader, authValue)
                .header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return exchange(request.build());
    }

    /** Sends the request and reads its answer as JSON (null when there is no body). */
    private static Answer exchange(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.body() == null || response.body().isBlank() ? null : JSON.readTree(response.body());
            return new Answer(response.statusCode(), json, response);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A GET whose body is not one JSON document (NDJSON): the status and the text. */
    HttpResponse<String> text(String path, String accept) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
                .header(authHeader, authValue).header("Accept", accept).GET().build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A multipart/form-data POST of text fields and one file part, as the client's uploads send it. */
    Answer upload(String path, Map<String, String> fields, String fileName, byte[] file) {
        String boundary = "----e2e" + System.nanoTime();
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        fields.forEach((name, value) -> body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\""
                + name + "\"\r\n\r\n" + value + "\r\n").getBytes(StandardCharsets.UTF_8)));
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
                .header(authHeader, authValue).header("Accept", "application/json")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
        return exchange(request);
    }

    Answer get(String path) {
        return send("GET", path, null, Map.of());
    }

    Answer getAfter(String path, String position) {
        return send("GET", path, null, position == null ? Map.of() : Map.of("X-Event-Position", position));
    }

    Answer post(String path, Object body) {
        return send("POST", path, body, Map.of());
    }

    Answer patch(String path, Object body) {
        return send("PATCH", path, body, Map.of());
    }

    Answer delete(String path) {
        return send("DELETE", path, null, Map.of());
    }
}
