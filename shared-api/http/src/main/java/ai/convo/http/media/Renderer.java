package ai.convo.http.media;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.xml.XmlMapper;

/** Renders a {@link Representation} as JSON, HAL+JSON, XML or CSV. One place, used by every operation. */
public final class Renderer {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    private static final XmlMapper XML = xmlMapper();

    /**
     * Text XML 1.0 cannot hold (a NUL or other control character a client put into a value, then echoed or stored) is
     * written as U+FFFD instead of failing the whole answer.
     */
    private static XmlMapper xmlMapper() {
        javax.xml.stream.XMLOutputFactory output = new com.ctc.wstx.stax.WstxOutputFactory();
        output.setProperty(com.ctc.wstx.api.WstxOutputProperties.P_OUTPUT_INVALID_CHAR_HANDLER,
                new com.ctc.wstx.api.InvalidCharHandler.ReplacingHandler('\uFFFD'));
        return XmlMapper.builder(tools.jackson.dataformat.xml.XmlFactory.builder().xmlOutputFactory(output).build())
                .build();
    }

    private Renderer() {
    }

    public static byte[] render(ServerWebExchange exchange, ApiMedia media, Representation representation) {
        if (representation instanceof Representation.Single single) {
            return renderSingle(exchange, media, single);
        }
        return renderPage(exchange, media, (Representation.Page) representation);
    }

    private static byte[] renderSingle(ServerWebExchange exchange, ApiMedia media, Representation.Single single) {
        return switch (media) {
            case JSON -> JSON.writeValueAsBytes(single.body());
            case HAL -> {
                Map<String, Object> body = new LinkedHashMap<>(single.body());
                body.put("_links", Map.of("self", Map.of("href", selfHref(exchange))));
                yield JSON.writeValueAsBytes(body);
            }
            case XML, TEXT_XML -> xml(single.name(), single.body());
            case CSV -> csv(List.of(single.body()));
        };
    }

    private static byte[] renderPage(ServerWebExchange exchange, ApiMedia media, Representation.Page page) {
        if (media == ApiMedia.CSV) {
            return csv(page.items());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        if (media == ApiMedia.HAL) {
            List<Map<String, Object>> items = new ArrayList<>(page.items().size());
            for (Map<String, Object> item : page.items()) {
                Map<String, Object> withLinks = new LinkedHashMap<>(item);
                withLinks.put("_links", Map.of("self", Map.of("href", page.itemPath().apply(item))));
                items.add(withLinks);
            }
            body.put("items", items);
        } else {
            body.put("items", page.items());
        }
        body.put("total", page.total());
        body.put("nextCursor", page.nextCursor());
        body.put("previousCursor", page.previousCursor());
        return switch (media) {
            case JSON -> JSON.writeValueAsBytes(body);
            case HAL -> {
                Map<String, Object> links = new LinkedHashMap<>();
                links.put("self", Map.of("href", selfHref(exchange)));
                if (page.nextCursor() != null) {
                    links.put("next", Map.of("href", cursorHref(exchange, "next", page.nextCursor())));
                }
                if (page.previousCursor() != null) {
                    links.put("previous", Map.of("href", cursorHref(exchange, "previous", page.previousCursor())));
                }
                body.put("_links", links);
                yield JSON.writeValueAsBytes(body);
            }
            case XML, TEXT_XML -> xml("list", body);
            case CSV -> throw new IllegalStateException("handled above");
        };
    }

    /** The request's own path and query, rebuilt from decoded parameters so no spelling of api_key survives. */
    static String selfHref(ServerWebExchange exchange) {
        return href(exchange, Set.of("api_key"), null, null);
    }

    private static String cursorHref(ServerWebExchange exchange, String direction, String cursor) {
        return href(exchange, Set.of("next", "previous", "skip", "api_key"), direction, cursor);
    }

    private static String href(ServerWebExchange exchange, Set<String> dropped, String name, String value) {
        UriComponentsBuilder builder = UriComponentsBuilder.fromPath(exchange.getRequest().getPath().value());
        exchange.getRequest().getQueryParams().forEach((param, values) -> {
            if (!dropped.contains(param)) {
                builder.queryParam(param, values.toArray());
            }
        });
        if (name != null) {
            builder.queryParam(name, value);
        }
        return builder.build().encode().toUriString();
    }

    // ---- XML: the same data as elements; every array becomes <name><item>..</item></name>.

    public static byte[] xml(String rootName, Map<String, Object> body) {
        return XML.writer().withRootName(rootName).writeValueAsBytes(wrapArrays(body));
    }

    @SuppressWarnings("unchecked")
    private static Object wrapArrays(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), wrapArrays(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>(list.size());
            for (Object element : list) {
                items.add(wrapArrays(element));
            }
            return Map.of("item", items);
        }
        return value;
    }

    // ---- CSV: one header row, one row per item; nested values as JSON text; formula cells neutralised.

    public static byte[] csv(List<Map<String, Object>> rows) {
        Set<String> columns = new LinkedHashSet<>();
        rows.forEach(row -> columns.addAll(row.keySet()));
        StringBuilder out = new StringBuilder();
        appendRow(out, new ArrayList<>(columns));
        for (Map<String, Object> row : rows) {
            List<String> cells = new ArrayList<>(columns.size());
            for (String column : columns) {
                cells.add(cell(row.get(column)));
            }
            appendRow(out, cells);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String cell(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        String text = value instanceof Map || value instanceof List ? JSON.writeValueAsString(value) : value.toString();
        return neutralise(text);
    }

    /** A spreadsheet would run a cell that starts like a formula; a leading quote makes it plain text. */
    static String neutralise(String text) {
        if (!text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0) {
            return "'" + text;
        }
        return text;
    }

    private static void appendRow(StringBuilder out, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            String cell = cells.get(i);
            if (cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0 || cell.indexOf('\n') >= 0 || cell.indexOf('\r') >= 0) {
                out.append('"').append(cell.replace("\"", "\"\"")).append('"');
            } else {
                out.append(cell);
            }
        }
        out.append("\r\n");
    }
}
