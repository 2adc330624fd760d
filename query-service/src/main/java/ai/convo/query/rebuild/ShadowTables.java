package ai.convo.query.rebuild;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Tables beside the live ones: a schema of copies (columns, defaults, keys, indexes and triggers under the same
 * names), filled by a rebuild and then moved in place of the live tables. Every statement names its schema. The
 * indexes of ReadModelTables.INDEXED_AFTER_LOAD's tables, and ReadModelTables.INDEXES_AFTER_LOAD, are built when the
 * copies are finished.
 * <p>
 * They are filled as a bulk load: unlogged (no WAL per row) and without the triggers that change no row of theirs,
 * then {@link #finish finished} (logged, those triggers added) before the switch: row_history's, which do nothing
 * without the live processors' event position, and the change notifications, which tell readers of the live tables
 * nothing about a copy. Triggers that keep rows (counts) are there from the start. Unlogged tables are emptied when
 * PostgreSQL recovers from a crash; an unlogged marker row in the schema tells whether that happened
 * ({@link #intact}), and a rebuild whose copies were emptied starts again.
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

    private static final String MARKER = "shadow_marker";

    /** Creates the schema with empty copies of the tables; a schema left by an earlier attempt is dropped first. */
    static void create(JdbcTemplate jdbc, String schema, List<String> tables) {
        jdbc.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE UNLOGGED TABLE " + schema + "." + MARKER + " (intact BOOLEAN NOT NULL)");
        jdbc.execute("INSERT INTO " + schema + "." + MARKER + " VALUES (true)");
        for (String table : tables) {
            String live = "public." + table;
            String copy = schema + "." + table;
            // No autovacuum while it is filled: one running at the switch holds the move up until it is cancelled
            // (deadlock_timeout, 1 s, with readers waiting). The rebuild analyzes the copy itself before the switch.
            jdbc.execute("CREATE UNLOGGED TABLE " + copy + " (LIKE " + live + " INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
                    + "INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE) WITH (autovacuum_enabled = false)");
            for (Map<String, Object> key : jdbc.queryForList("SELECT conname, pg_get_constraintdef(oid) AS def "
                    + "FROM pg_constraint WHERE conrelid = ?::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname",
                    live)) {
                jdbc.execute("ALTER TABLE " + copy + " ADD CONSTRAINT " + key.get("conname") + " " + key.get("def"));
            }
            if (!ReadModelTables.INDEXED_AFTER_LOAD.contains(table)) {
                indexes(jdbc, schema, table, ReadModelTables.INDEXES_AFTER_LOAD);
            }
            for (String trigger : jdbc.queryForList(TRIGGERS + " AND NOT (" + DEFERRED + ") ORDER BY t.tgname",
                    String.class, live)) {
                jdbc.execute(retarget(trigger, table, copy));
            }
        }
    }

    private static final String TRIGGERS = "SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_proc p "
            + "ON p.oid = t.tgfoid WHERE t.tgrelid = ?::regclass AND NOT t.tgisinternal";
    /** The triggers a copy gets only when it is finished: they change no row of the rebuilt tables. */
    private static final String DEFERRED = "p.proname = 'keep_row_history' OR p.proname LIKE 'notify\\_%'";

    /** The live table's indexes other than its constraints' that the copy does not have yet, but {@code later}. */
    private static void indexes(JdbcTemplate jdbc, String schema, String table, Set<String> later) {
        for (String index : jdbc.queryForList("SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i "
                + "JOIN pg_class x ON x.oid = i.indexrelid WHERE i.indrelid = ?::regclass AND NOT EXISTS (SELECT 1 "
                + "FROM pg_constraint c WHERE c.conindid = i.indexrelid) AND to_regclass(quote_ident(?) || '.' || "
                + "quote_ident(x.relname)) IS NULL AND x.relname <> ALL (?::text[]) ORDER BY i.indexrelid",
                String.class, "public." + table, schema, later.toArray(String[]::new))) {
            jdbc.execute(retarget(index, table, schema + "." + table));
        }
    }

    /** Whether the schema holds what was written to it: false when it is gone, or a crash emptied its copies. */
    static boolean intact(JdbcTemplate jdbc, String schema) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class,
                schema + "." + MARKER))
                && Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM " + schema + "." + MARKER
                + ")", Boolean.class));
    }

    /**
     * Makes the filled copies as the live tables are: logged (each copy and its indexes written to the WAL once, as
     * one file), with every index and with the live tables' triggers. Again after a switch that gave way: what is finished stays so.
     */
    static void finish(JdbcTemplate jdbc, String schema, List<String> tables) {
        for (String table : tables) {
            String live = "public." + table;
            String copy = schema + "." + table;
            if (Boolean.TRUE.equals(jdbc.queryForObject("SELECT relpersistence = 'u' FROM pg_class WHERE oid = "
                    + "?::regclass", Boolean.class, copy))) {
                jdbc.execute("ALTER TABLE " + copy + " SET LOGGED");
            }
            indexes(jdbc, schema, table, Set.of());
            for (String trigger : jdbc.queryForList(TRIGGERS + " AND (" + DEFERRED + ") AND NOT EXISTS (SELECT 1 "
                    + "FROM pg_trigger c WHERE c.tgrelid = ?::regclass AND c.tgname = t.tgname) ORDER BY t.tgname",
                    String.class, live, copy)) {
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
