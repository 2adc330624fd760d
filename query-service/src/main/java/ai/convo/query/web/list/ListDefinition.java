package ai.convo.query.web.list;

import java.util.Map;

/**
 * What a list is made of: its table, its sortable fields and the column that {@code filter} searches.
 * The id column ({@code id}) always ends the order, so the order is total.
 */
public record ListDefinition(String name, String table, Map<String, Column> sortable, String filterColumn) {

    public java.util.Set<String> sortableFields() {
        return sortable.keySet();
    }
}
