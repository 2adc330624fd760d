package ai.convo.query.rebuild;

import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A canonical digest of one table: the MD5 of its rows in primary-key order, each row written as PostgreSQL's text
 * of its derived columns (columns ReadModelTables excludes are left out). Two tables with the same rows give the
 * same digest whatever order they were written in, whichever schema they live in.
 */
record TableDigest(String table, long rows, String md5) {

    static TableDigest of(JdbcTemplate jdbc, String schema, String table) {
        Set<String> excluded = ReadModelTables.EXCLUDED_COLUMNS.getOrDefault(table, Set.of());
        List<String> columns = jdbc.queryForList("SELECT column_name FROM information_schema.columns "
                + "WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position", String.class, table)
                .stream().filter(c -> !excluded.contains(c)).map(c -> "t." + quote(c)).toList();
        List<String> key = jdbc.queryForList("SELECT a.attname FROM pg_index i JOIN pg_attribute a "
                + "ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey) WHERE i.indrelid = ?::regclass "
                + "AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)", String.class,
                "public." + table).stream().map(c -> "t." + quote(c)).toList();
        String row = "md5(ROW(" + String.join(", ", columns) + ")::text)";
        String order = String.join(", ", key.isEmpty() ? List.of(row) : key);
        return jdbc.queryForObject("SELECT count(*) AS n, md5(coalesce(string_agg(" + row + ", '' ORDER BY " + order
                        + "), '')) AS digest FROM " + schema + "." + table + " t",
                (rs, i) -> new TableDigest(table, rs.getLong("n"), rs.getString("digest")));
    }

    private static String quote(String column) {
        return "\"" + column.replace("\"", "\"\"") + "\"";
    }
}
