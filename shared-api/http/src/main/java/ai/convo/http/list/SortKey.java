package ai.convo.http.list;

/** One key of a list's order: an API field name and its direction. */
public record SortKey(String field, boolean ascending) {

    public String wire() {
        return field + ":" + (ascending ? "asc" : "desc");
    }
}
