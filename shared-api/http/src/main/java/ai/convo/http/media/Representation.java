package ai.convo.http.media;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** What an operation answers, before it is rendered in the negotiated media type. */
public sealed interface Representation {

    /** One record. {@code name} is the XML root element. */
    record Single(String name, Map<String, Object> body) implements Representation {
    }

    /** One page of a list; {@code itemPath} gives each item's canonical path for HAL links. */
    record Page(List<Map<String, Object>> items, long total, String nextCursor, String previousCursor,
                Function<Map<String, Object>, String> itemPath) implements Representation {
    }
}
