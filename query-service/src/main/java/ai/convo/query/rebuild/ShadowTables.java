package ai.convo.query.rebuild;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Tables beside the live ones: a schema of copies (columns, defaults, keys, indexes and triggers under the same
 * names), filled by a rebuild and then moved in place of the live tables. Every statement names its schema.
 */
final class ShadowTables {

    private ShadowTables() {
    }

    static String schemaOf(String rebuildId) {
        return "rebuild_" + rebuildId;
    }

    static String retiredOf(String rebuildId) {
        return "retired_" + rebuildId;
    }

    /** Creates the schema with empty copies of the tables; a schema left by an earlier attempt is dropped first. */
    static void create(JdbcTemplate jdbc, String schema, List<String> tables) {
        jdbc.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        jdbc.execute("CREATE SCHEMA " + schema);
        for (String table : tables) {
            String live = "public." + table;
            String copy = schema + "." + table;
            // No autovacuum while it is filled: one running at the switch holds the move up until it is cancelled
            // (deadlock_timeout, 1 s, with readers waiting). The rebuild analyzes the copy itself before the switch.
            jdbc.execute("CREATE TABLE " + copy + " (LIKE " + live + " INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
                    + "INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE) WITH (autovacuum_enabled = false)");
            for (Map<String, Object> key : jdbc.queryForList("SELECT conname, pg_get_constraintdef(oid) AS def "
                    + "FROM pg_constraint WHERE conrelid = ?::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname",
                    live)) {
                jdbc.execute("ALTER TABLE " + copy + " ADD CONSTRAINT " + key.get("conname") + " " + key.get("def"));
            }
            for (String index : jdbc.queryForList("SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i "
                    + "WHERE i.indrelid = ?::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c "
                    + "WHERE c.conindid = i.indexrelid) ORDER BY i.indexrelid", String.class, live)) {
                jdbc.execute(retarget(index, table, copy));
            }
            for (String trigger : jdbc.queryForList("SELECT pg_get_triggerdef(oid) FROM pg_trigger "
                    + "WHERE tgrelid = ?::regclass AND NOT tgisinternal ORDER BY tgname", String.class, live)) {
                jdbc.execute(retarget(trigger, table, copy));
            }
        }
    }

    /** Points an index or trigger definition of the live table at its copy. */
    static String retarget(String definition, String table, String copy) {
        Matcher on = Pattern.compile(" ON (ONLY )?(public\\.)?" + Pattern.quote(table) + " ").matcher(definition);
        if (!on.find()) {
            throw new IllegalStateException("Cannot point at " + copy + ": " + definition);
        }
        return definition.substring(0, on.start()) + " ON " + copy + " " + definition.substring(on.end());
    }

    /** The views that read any of the tables, with their definitions as written now: re-created after a switch. */
    static Map<String, String> viewsOver(JdbcTemplate jdbc, List<String> tables) {
        Map<String, String> views = new LinkedHashMap<>();
        List<String> qualified = new ArrayList<>();
        tables.forEach(t -> qualified.add("public." + t));
        jdbc.query("SELECT DISTINCT v.oid::regclass::text AS name, pg_get_viewdef(v.oid) AS def FROM pg_depend d "
                        + "JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_class v ON v.oid = r.ev_class "
                        + "WHERE v.relkind = 'v' AND d.refobjid = ANY (SELECT unnest(?::text[])::regclass) ORDER BY 1",
                rs -> {
                    views.put(rs.getString("name"), rs.getString("def"));
                }, (Object) qualified.toArray(String[]::new));
        return views;
    }

    static void drop(JdbcTemplate jdbc, String schema) {
        jdbc.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
}
