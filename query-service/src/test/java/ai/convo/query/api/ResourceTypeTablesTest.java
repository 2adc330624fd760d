package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.resource.ResourceType;
import ai.convo.contract.resource.ResourceTypes;
import ai.convo.http.web.IndexedHandlerMapping;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The resource types (ResourceTypes) against the migrated schema and the running routes: every type's table exists;
 * a type with a history route has a table with the row_history trigger (without it asOf answers 404 and the history
 * misses row changes) and its route is served; every {@code *_view} table keeps row history or says why not. The
 * history-trigger migrations are SQL, so this reads the schema Flyway built, not the migration files.
 */
class ResourceTypeTablesTest extends QueryTestBase {

    /** {@code *_view} tables that belong to no resource type's history, and why they keep none. */
    static final Map<String, String> VIEWS_WITHOUT_HISTORY = Map.of(
            "intent_flow_view", "which project each flow of the intents is in; not a resource",
            "snapshot_resource_view", "a snapshot's index of what it holds, immutable with the snapshot",
            "login_attempt_view", "login attempts are records, never changed");

    @Autowired
    IndexedHandlerMapping mapping;
    @Autowired
    DataSource dataSource;

    /** The query schema's tables and those of them with the row_history trigger. */
    record Schema(Set<String> tables, Set<String> withRowHistory) {
    }

    static Schema schema(JdbcTemplate jdbc) {
        Set<String> tables = new TreeSet<>(jdbc.queryForList("SELECT c.relname FROM pg_class c WHERE c.relkind = 'r' "
                + "AND pg_table_is_visible(c.oid)", String.class));
        Set<String> triggered = new TreeSet<>(jdbc.queryForList("SELECT c.relname FROM pg_trigger t "
                + "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid "
                + "WHERE p.proname = 'keep_row_history' AND NOT t.tgisinternal AND pg_table_is_visible(c.oid)",
                String.class));
        return new Schema(tables, triggered);
    }

    /** GET routes the service answers (without the base path). */
    private Set<String> servedGetRoutes() {
        Set<String> served = new HashSet<>();
        mapping.getHandlerMethods().keySet().stream()
                .filter(info -> info.getMethodsCondition().getMethods().contains(RequestMethod.GET))
                .flatMap(info -> info.getPatternsCondition().getPatterns().stream()).map(PathPattern::getPatternString)
                .forEach(pattern -> served.add(pattern.substring(pattern.indexOf("/v2.0/") < 0 ? 0
                        : pattern.indexOf("/v2.0/"))));
        return served;
    }

    static List<String> problems(List<ResourceType> types, Schema schema, Set<String> served) {
        List<String> problems = new ArrayList<>();
        Set<String> withoutHistory = new HashSet<>(VIEWS_WITHOUT_HISTORY.keySet());
        for (ResourceType type : types) {
            String table = type.table();
            if (table != null && !schema.tables().contains(table)) {
                problems.add(type.name() + ": its table " + table + " is not in the schema");
            }
            if (type.history().kept()) {
                if (table == null) {
                    problems.add(type.name() + ": a history route needs the type's table (ResourceType.view)");
                } else if (!schema.withRowHistory().contains(table)) {
                    problems.add(type.name() + ": " + table + " has no row_history trigger (CREATE TRIGGER " + table
                            + "_history AFTER INSERT OR UPDATE OR DELETE ON " + table
                            + " FOR EACH ROW EXECUTE FUNCTION keep_row_history())");
                }
                if (!served.contains(type.history().path())) {
                    problems.add(type.name() + ": its history route " + type.history().path() + " is not served");
                }
            } else if (table != null) {
                if (schema.withRowHistory().contains(table)) {
                    problems.add(type.name() + ": " + table + " keeps row history but the type has no history route");
                }
                withoutHistory.add(table);
            }
        }
        for (String table : schema.tables()) {
            if (table.endsWith("_view") && !schema.withRowHistory().contains(table) && !withoutHistory.contains(table)) {
                problems.add(table + ": a *_view table without the row_history trigger, of no resource type that "
                        + "says why it keeps no history");
            }
        }
        return problems;
    }

    @Test
    void givenTheMigratedSchemaAndTheRunningRoutes_whenCheckedAgainstEveryResourceType_thenNothingIsMissing() {
        // given
        Schema schema = schema(jdbc);
        // when
        List<String> problems = problems(ResourceTypes.ALL, schema, servedGetRoutes());
        // then
        assertThat(problems).isEmpty();
        assertThat(schema.withRowHistory()).hasSizeGreaterThanOrEqualTo(12);
    }

    /** A planted type whose migration was forgotten: no table, no trigger, and its route not served. */
    @Test
    void givenATypeWithoutItsMigration_whenChecked_thenTheGuardNamesTheTableTheTriggerAndTheRoute() {
        // planted under a name no real type has (slot fillers, planted here first, are real now)
        ResourceType planted = ResourceType.named("plantedWidget", "widgetId", "PlantedWidget")
                .view("planted_widget_view", "planted-widgets")
                .history("Planted widget", "/v2.0/plantedwidgets/{widgetId}/history")
                .notInSnapshots("planted");
        List<ResourceType> types = new ArrayList<>(ResourceTypes.ALL);
        types.add(planted);
        List<String> problems = problems(types, schema(jdbc), servedGetRoutes());
        assertThat(problems).containsExactly(
                "plantedWidget: its table planted_widget_view is not in the schema",
                "plantedWidget: planted_widget_view has no row_history trigger (CREATE TRIGGER planted_widget_view_history "
                        + "AFTER INSERT OR UPDATE OR DELETE ON planted_widget_view FOR EACH ROW EXECUTE FUNCTION "
                        + "keep_row_history())",
                "plantedWidget: its history route /v2.0/plantedwidgets/{widgetId}/history is not served");
    }

    /** A real table created without its trigger (in a transaction rolled back): the schema check finds it. */
    @Test
    void givenAViewTableCreatedWithoutItsTrigger_whenTheSchemaIsChecked_thenTheGuardNamesIt() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                JdbcTemplate inTransaction = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
                inTransaction.execute("CREATE TABLE planted_slot_filler_view (id VARCHAR(24) PRIMARY KEY)");
                List<String> problems = problems(ResourceTypes.ALL, schema(inTransaction), servedGetRoutes());
                assertThat(problems).containsExactly("planted_slot_filler_view: a *_view table without the row_history "
                        + "trigger, of no resource type that says why it keeps no history");
            } finally {
                connection.rollback();
            }
        }
    }
}
