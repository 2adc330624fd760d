package ai.convo.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * Malformed requests for every route a service exposes: the routes come from its handler mapping (so a new route is
 * covered the day it is added), and each gets requests made from a seeded random choice of hostile ids, bodies,
 * media types, list parameters and credentials. {@link #findings} says what is wrong with an answer: a 5xx (501, a
 * capability this server does not have, aside), a refusal that is not a problem body of its own status, a leak of
 * internals, or a refusal that changed the event store.
 */
public final class HostileCorpus {

    /** One route: an HTTP method and its path pattern ({var} placeholders). */
    public record Route(String method, String pattern) {
    }

    /** One request of the corpus. {@code headers} may hold none, one or several credentials. */
    public record Probe(Route route, String method, String uri, Map<String, String> headers, byte[] body, String label) {
    }

    /** How many answers of each status the run got, and what was wrong. */
    public static final class Tally {
        public final Map<Integer, Integer> statuses = new TreeMap<>();
        public final List<String> findings = new ArrayList<>();
        public int requests;

        public String summary(String service) {
            return "hostile corpus on the " + service + ": " + requests + " requests, statuses " + statuses + ", "
                    + findings.size() + " findings";
        }
    }

    static final List<String> IDS = List.of("x", "0", "-1", "null", "%27%20OR%201%3D1--", "..%2F..%2Fetc%2Fpasswd",
            "%00", "a".repeat(300), "%EF%BC%A1%EF%BC%A2%EF%BC%A3", "%F0%9F%92%A9", "ffffffffffffffffffffffff",
            "%7Bid%7D", "1e309", "ZZZZZZZZZZZZZZZZZZZZZZZZ");
    static final List<String> BODIES = List.of("", "null", "[]", "\"text\"", "{", "{\"a\":1,}", "{}",
            "[".repeat(5000) + "]".repeat(5000), "{\"name\":{\"$ne\":null}}",
            "{\"name\":\"" + "x".repeat(100_000) + "\"}", "{\"limit\":9223372036854775808,\"skip\":-1}",
            "{\"__proto__\":{\"admin\":true},\"constructor\":{\"prototype\":{}}}",
            "{\"projectId\":\"ffffffffffffffffffffffff\",\"name\":\"n\",\"locale\":\"en-US\"}",
            "{\"name\":1,\"description\":[],\"tags\":{},\"data\":\"x\",\"isDisabled\":\"yes\"}",
            "{\"operations\":[{\"op\":\"drop\",\"id\":\"x\"}]}", "{\"text\":\"\\u0000\",\"localeId\":\"x\"}",
            "\u00ef\u00bb\u00bf{\"name\":\"bom\"}", "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>");
    static final List<String> CONTENT_TYPES = List.of("application/json", "text/plain", "application/xml",
            "multipart/form-data", "garbage/;;", "application/json; charset=ebcdic", "");
    static final List<String> QUERIES = List.of("", "?limit=-1", "?limit=100000000000", "?skip=-5",
            "?sort=name:sideways", "?sort=%3BDROP%20TABLE%20x", "?filter=%25%27%22", "?next=AAAA", "?previous=%00",
            "?limit=1&limit=2", "?preferredLocaleId=x", "?projectId=%27", "?format=xlsx", "?from=yesterday&to=-1",
            "?token=..%2F");
    static final List<String> ACCEPTS = List.of("application/json", "garbage", "application/xml", "text/csv", "*/*",
            "application/hal+json", "");

    /** What an answer must never show: exception names, stack frames, SQL errors, paths, secrets. */
    static final Pattern LEAK = Pattern.compile("Exception|\\tat |at ai\\.convo|org\\.springframework|java\\.lang|"
            + "SQLState|syntax error at or near|/tmp/|/home/|/work/|/root/|password_hash|key_hash|\\$2a\\$");

    private static final Pattern VARIABLE = Pattern.compile("\\{[^}]+}");

    private HostileCorpus() {
    }

    /** Every route of the service's annotated handlers, sorted, once per method. */
    public static List<Route> routes(RequestMappingHandlerMapping mapping) {
        Set<String> seen = new TreeSet<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : mapping.getHandlerMethods().entrySet()) {
            RequestMappingInfo info = entry.getKey();
            Set<org.springframework.web.bind.annotation.RequestMethod> methods = info.getMethodsCondition().getMethods();
            for (var pattern : info.getPatternsCondition().getPatterns()) {
                if (methods.isEmpty()) {
                    seen.add("GET " + pattern.getPatternString());
                }
                methods.forEach(m -> seen.add(m.name() + " " + pattern.getPatternString()));
            }
        }
        return seen.stream().map(s -> new Route(s.substring(0, s.indexOf(' ')), s.substring(s.indexOf(' ') + 1)))
                .toList();
    }

    /**
     * {@code perRoute} requests for each route, from {@code seed}. {@code credentials}: header name to value of a
     * valid credential, used for most requests; the others carry none or a broken one.
     */
    public static List<Probe> probes(List<Route> routes, long seed, int perRoute, String basePath,
                                     Map<String, String> credentials) {
        Random random = new Random(seed);
        List<Probe> probes = new ArrayList<>();
        for (Route route : routes) {
            for (int i = 0; i < perRoute; i++) {
                StringBuilder label = new StringBuilder();
                Matcher vars = VARIABLE.matcher(route.pattern());
                StringBuilder path = new StringBuilder();
                while (vars.find()) {
                    String id = pick(random, IDS);
                    vars.appendReplacement(path, Matcher.quoteReplacement(id));
                    label.append("id=").append(abbreviate(id)).append(' ');
                }
                vars.appendTail(path);
                String concrete = path.toString().replace("**", "x").replace("*", "x");
                path.setLength(0);
                path.append(concrete);
                String query = pick(random, QUERIES);
                Map<String, String> headers = new LinkedHashMap<>();
                int auth = random.nextInt(10);
                if (auth < 7) {
                    headers.putAll(credentials);
                } else if (auth == 7) {
                    headers.put("Authorization", pick(random, List.of("Basic !!!", "Bearer x.y.z",
                            "Basic " + java.util.Base64.getEncoder().encodeToString("a@b.c:wrong".getBytes()),
                            "Negotiate abc", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")));
                    label.append("auth=broken ");
                } else if (auth == 8) {
                    headers.put("X-API-Key", "' OR 1=1 --");
                    label.append("auth=bad-key ");
                } else {
                    label.append("auth=none ");
                }
                String accept = pick(random, ACCEPTS);
                if (!accept.isEmpty()) {
                    headers.put("Accept", accept);
                }
                byte[] body = null;
                if (Set.of("POST", "PUT", "PATCH").contains(route.method())) {
                    String text = pick(random, BODIES);
                    body = random.nextInt(12) == 0 ? randomBytes(random) : text.getBytes(StandardCharsets.UTF_8);
                    String type = pick(random, CONTENT_TYPES);
                    if (!type.isEmpty()) {
                        headers.put("Content-Type", type);
                    }
                    label.append("body=").append(abbreviate(body.length > 60 ? "(" + body.length + " bytes)"
                            : new String(body, StandardCharsets.UTF_8))).append(" type=").append(type).append(' ');
                }
                label.append("accept=").append(accept).append(" query=").append(query);
                probes.add(new Probe(route, route.method(), basePath + path + query, headers, body, label.toString()));
            }
        }
        return probes;
    }

    /**
     * What is wrong with one answer (empty: nothing). {@code storeChanged}: whether the event store's row count
     * differs from before the request.
     */
    public static List<String> findings(Probe probe, int status, String contentType, byte[] body, boolean storeChanged) {
        List<String> found = new ArrayList<>();
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
        if (status >= 500 && status != 501) {
            found.add(status + " (no 5xx may come from a client's request)");
        }
        if (status >= 400) {
            String type = contentType == null ? "" : contentType;
            if (!probe.method().equals("HEAD") && !type.contains("problem+json") && !type.contains("problem+xml")) {
                found.add(status + " without a problem body (Content-Type " + type + ")");
            } else if (type.contains("problem+json") && !(text.contains("\"status\":" + status)
                    && text.contains("\"detail\":") && text.contains("\"traceId\":"))) {
                found.add(status + " with a problem body missing status/detail/traceId: " + abbreviate(text));
            }
            if (storeChanged) {
                found.add(status + " but the event store changed");
            }
        }
        Matcher leak = LEAK.matcher(text);
        if (leak.find()) {
            found.add("leaks '" + leak.group() + "': " + abbreviate(text.substring(Math.max(0, leak.start() - 80))));
        }
        return found.stream().map(f -> probe.method() + " " + probe.route().pattern() + " [" + probe.label() + "]: "
                + f).toList();
    }

    /** The probes as raw HTTP/1.1 requests, base64, one per line (for a client outside the JVM). */
    public static void dump(List<Probe> probes, java.nio.file.Path file) {
        StringBuilder out = new StringBuilder();
        for (Probe probe : probes) {
            StringBuilder head = new StringBuilder(probe.method()).append(' ').append(probe.uri())
                    .append(" HTTP/1.1\r\nHost: localhost\r\n");
            probe.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            if (probe.body() != null) {
                head.append("Content-Length: ").append(probe.body().length).append("\r\n");
            }
            byte[] start = head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
            byte[] body = probe.body() == null ? new byte[0] : probe.body();
            byte[] all = java.util.Arrays.copyOf(start, start.length + body.length);
            System.arraycopy(body, 0, all, start.length, body.length);
            out.append(java.util.Base64.getEncoder().encodeToString(all)).append('\n');
        }
        try {
            java.nio.file.Files.writeString(file, out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One answer as read off the wire. */
    record Answer(int status, String contentType, byte[] body) {
    }

    /**
     * Sends every probe to {@code port} on localhost, one after another, each on a connection of its own
     * ({@code Connection: close}), so a probe's answer is its own whatever the one before it did. (Keep-alive
     * connections have a check of their own: KeepAliveReadsTest, deploy/bench/keepalive-hang.py.) {@code eventCount}
     * reads the event store's row count, before and after each request.
     */
    public static Tally run(List<Probe> probes, int port, java.util.function.LongSupplier eventCount) {
        Tally tally = new Tally();
        for (Probe probe : probes) {
            long before = eventCount.getAsLong();
            Answer answer;
            try {
                answer = send(port, probe);
            } catch (java.io.IOException e) {
                tally.findings.add(probe.method() + " " + probe.route().pattern() + " [" + probe.label()
                        + "]: no answer (" + e + ")");
                continue;
            }
            tally.requests++;
            tally.statuses.merge(answer.status(), 1, Integer::sum);
            tally.findings.addAll(findings(probe, answer.status(), answer.contentType(), answer.body(),
                    eventCount.getAsLong() != before));
        }
        return tally;
    }

    static Answer send(int port, Probe probe) throws java.io.IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            java.io.ByteArrayOutputStream request = new java.io.ByteArrayOutputStream();
            StringBuilder head = new StringBuilder(probe.method()).append(' ').append(probe.uri())
                    .append(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
            probe.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            if (probe.body() != null) {
                head.append("Content-Length: ").append(probe.body().length).append("\r\n");
            }
            request.write(head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            if (probe.body() != null) {
                request.write(probe.body());
            }
            socket.getOutputStream().write(request.toByteArray());
            socket.getOutputStream().flush();
            byte[] all = socket.getInputStream().readAllBytes();
            String text = new String(all, StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/1.1 ") || end < 0) {
                throw new java.io.IOException("not an HTTP answer: " + abbreviate(text));
            }
            int status = Integer.parseInt(text.substring(9, 12));
            String contentType = null;
            boolean chunked = false;
            for (String line : text.substring(0, end).split("\r\n")) {
                String lower = line.toLowerCase(java.util.Locale.ROOT);
                if (lower.startsWith("content-type:")) {
                    contentType = line.substring(13).trim();
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
            return new Answer(status, contentType, chunked ? dechunk(body) : body);
        }
    }

    private static byte[] dechunk(byte[] chunked) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int at = 0;
        while (at < chunked.length) {
            int lineEnd = at;
            while (lineEnd + 1 < chunked.length && !(chunked[lineEnd] == '\r' && chunked[lineEnd + 1] == '\n')) {
                lineEnd++;
            }
            String size = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int length = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (length == 0) {
                break;
            }
            out.write(chunked, lineEnd + 2, Math.min(length, chunked.length - lineEnd - 2));
            at = lineEnd + 2 + length + 2;
        }
        return out.toByteArray();
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[1 + random.nextInt(300)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String abbreviate(String value) {
        String flat = value.replace("\n", "\\n").replace("\r", "\\r");
        return flat.length() > 160 ? flat.substring(0, 160) + "..." : flat;
    }
}
