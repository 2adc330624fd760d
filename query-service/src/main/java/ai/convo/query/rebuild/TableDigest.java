package ai.convo.query.rebuild;

import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A canonical digest of one table: its row count and the sum of a 64-bit hash of each row's text (PostgreSQL's
 * {@code hashtextextended} of the row of its derived columns; ReadModelTables leaves the others out). Every table
 * here has a primary key, so its rows are a set and the sum does not depend on their order: two tables with the same
 * rows give the same digest however they were written, in whichever schema. It needs no sort and no large string,
 * so a million rows take well under a second, which is what the switch waits for.
 */
record TableDigest(String table, long rows, String sum) {

    static TableDigest of(JdbcTemplate jdbc, String schema, String table) {
        Set<String> excluded = ReadModelTables.EXCLUDED_COLUMNS.getOrDefault(table, Set.of());
        List<String> columns = jdbc.queryForList("SELECT column_name FROM information_schema.columns "
                + "WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position", String.class, table)
                .stream().filter(c -> !excluded.contains(c)).map(c -> "t." + quote(c)).toList();
        return jdbc.queryForObject("SELECT count(*) AS n, coalesce(sum(hashtextextended(ROW("
                        + String.join(", ", columns) + ")::text, 0)::numeric), 0)::text AS digest FROM "
                        + schema + "." + table + " t",
                (rs, i) -> new TableDigest(table, rs.getLong("n"), rs.getString("digest")));
    }

    private static String quote(String column) {
        return "\"" + column.replace("\"", "\"\"") + "\"";
    }
}
