package ai.convo.query.intent;

import ai.convo.query.ReadModelSchema;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.media.Renderer;
import ai.convo.query.web.list.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.JsonNode;

/**
 * A flow of 10,000 intents and 100,000 sentences (among 20,000 intents of other flows): every first list page the
 * intent and sentence routes ask for is planned as an index scan in the requested order, never a sort of the
 * flow's rows; no page, first or continued by a cursor, scans a table. The queries have the shape the keyset
 * engine generates (a continued page's "(k &gt; v) OR (k = v AND id &gt; w)" is not an index range for PostgreSQL,
 * so the planner may read the rest of the range through the index and sort it).
 */
@Tag("integration")
class IntentListPlanTest {

    static final String ORG = "00000000000000000000000o";
    static final String FLOW = "00000000000000000000000f";
    static final String INTENT = "i00000000000000000000042";
    /** A root intent with 4,500 children. */
    static final String ROOT = "i00000000000000000000000";
    static final String EN = "00000000000000000000000e";

    static JdbcTemplate jdbc;

    @BeforeAll
    static void tenThousandIntents() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new JdbcTemplate(dataSource);
        // 30,000 intents: 10,000 in FLOW (1,000 roots; ROOT has 4,500 children, the other roots 9 each), 20,000 in
        // 20 other flows.
        jdbc.update("""
                INSERT INTO intent_view (id, flow_id, project_id, organisation_id, reference_id, name, description, tags,
                    tags_key, is_reject_intent, is_disabled, parent_intent_id, condition, confirmation_sentences,
                    disambiguation_sentence, rules, data, child_features, bias, created_at, last_changed, created_by,
                    last_changed_by)
                SELECT 'i' || lpad(g::text, 23, '0'),
                       CASE WHEN g < 10000 THEN :flow ELSE 'f' || lpad((g % 20)::text, 23, '0') END,
                       'p00000000000000000000000', :org, md5(g::text), 'intent ' || md5(g::text), md5((g * 7)::text),
                       '[]', md5((g * 3)::text), g % 2 = 0, g % 3 = 0,
                       CASE WHEN g % 10 = 0 OR g >= 10000 THEN ''
                            WHEN g >= 5000 THEN 'i00000000000000000000000'
                            ELSE 'i' || lpad(((g / 10) * 10)::text, 23, '0') END,
                       '', '[]', '', '[]', '{}', 'false', NULL, 1000 + g % 500, 2000 + g % 700, :org, :org
                FROM generate_series(0, 29999) g""".replace(":flow", "'" + FLOW + "'").replace(":org", "'" + ORG + "'"));
        // 100,000 sentences of FLOW's intents (10 each, in two locales), 5,000 more of INTENT, and their counts.
        jdbc.update("""
                INSERT INTO sentence_view (id, intent_id, flow_id, project_id, organisation_id, locale_id, text, created_at,
                    last_changed, created_by, last_changed_by)
                SELECT 's' || lpad(g::text, 23, '0'), 'i' || lpad((g / 10)::text, 23, '0'), :flow,
                       'p00000000000000000000000', :org, CASE WHEN g % 2 = 0 THEN :en ELSE 'd00000000000000000000000' END,
                       'sentence ' || md5(g::text), 1000 + g % 900, 1000 + g % 900, :org, :org
                FROM generate_series(0, 99999) g""".replace(":flow", "'" + FLOW + "'").replace(":org", "'" + ORG + "'")
                .replace(":en", "'" + EN + "'"));
        jdbc.update("""
                INSERT INTO sentence_view (id, intent_id, flow_id, project_id, organisation_id, locale_id, text, created_at,
                    last_changed, created_by, last_changed_by)
                SELECT 't' || lpad(g::text, 23, '0'), :intent, :flow, 'p00000000000000000000000', :org,
                       CASE WHEN g % 2 = 0 THEN :en ELSE 'd00000000000000000000000' END, 'more ' || md5(g::text),
                       1000 + g % 900, 1000 + g % 900, :org, :org
                FROM generate_series(0, 4999) g""".replace(":flow", "'" + FLOW + "'").replace(":org", "'" + ORG + "'")
                .replace(":en", "'" + EN + "'").replace(":intent", "'" + INTENT + "'"));
        jdbc.update("""
                INSERT INTO intent_sentence_count (intent_id, locale_id, flow_id, project_id, sentence_count)
                SELECT intent_id, locale_id, flow_id, project_id, count(*) FROM sentence_view
                GROUP BY intent_id, locale_id, flow_id, project_id""");
        jdbc.execute("ANALYZE intent_view");
        jdbc.execute("ANALYZE sentence_view");
        jdbc.execute("ANALYZE intent_sentence_count");
    }

    /** The plan of a query as JSON text. */
    private static String plan(String sql) {
        return String.join("\n", jdbc.queryForList("EXPLAIN (FORMAT JSON) " + sql, String.class));
    }

    /**
     * No sequential scan, and no sort of more than a page's worth of rows: the rows come from an index in the
     * requested order (the planner may still sort the handful of rows of a tiny range).
     */
    private static void assertIndexOrdered(String sql) {
        String plan = assertIndexOnly(sql);
        List<JsonNode> sorts = new ArrayList<>();
        collectSorts(Renderer.JSON.readTree(plan).get(0).get("Plan"), sorts);
        for (JsonNode sort : sorts) {
            assertThat(sort.get("Plan Rows").asLong()).as(sql + "\n" + plan).isLessThanOrEqualTo(100);
        }
    }

    /** No sequential scan: every row is found through an index. */
    private static String assertIndexOnly(String sql) {
        String plan = plan(sql);
        assertThat(plan).as(sql).doesNotContain("Seq Scan").contains("Index");
        return plan;
    }

    private static void collectSorts(JsonNode node, List<JsonNode> sorts) {
        if (node.get("Node Type").stringValue().contains("Sort")) {
            sorts.add(node);
        }
        if (node.has("Plans")) {
            node.get("Plans").forEach(child -> collectSorts(child, sorts));
        }
    }

    /** A page as the keyset engine asks for it: the first page, or the page after a boundary row. */
    private static String page(String table, String where, String key, boolean ascending, boolean afterBoundary) {
        String direction = ascending ? "ASC" : "DESC";
        String comparison = ascending ? ">" : "<";
        String keyset = "";
        if (afterBoundary) {
            // The boundary is the row in the middle of the list, as a cursor deep in a walk would hold.
            Map<String, Object> middle = jdbc.queryForMap("SELECT " + key + " AS k0, id FROM " + table + " WHERE " + where
                    + " ORDER BY " + key + ", id OFFSET (SELECT count(*) / 2 FROM " + table + " WHERE " + where
                    + ") LIMIT 1");
            String value = literal(middle.get("k0"));
            String id = literal(middle.get("id"));
            keyset = " AND ((" + key + " " + comparison + " " + value + ") OR (" + key + " = " + value + " AND id "
                    + comparison + " " + id + "))";
        }
        return "SELECT *, " + key + " AS k0, id AS k1 FROM " + table + " WHERE " + where + keyset + " ORDER BY " + key + " "
                + direction + ", id " + direction + " LIMIT 26";
    }

    private static String literal(Object value) {
        return value instanceof String text ? "'" + text.replace("'", "''") + "'" : String.valueOf(value);
    }

    @Test
    void givenTenThousandIntents_whenListingByEverySortFieldInEveryScope_thenEveryPageIsAnIndexScanInOrder() {
        List<String> scopes = List.of(
                "organisation_id = '" + ORG + "' AND flow_id = '" + FLOW + "'",
                "organisation_id = '" + ORG + "' AND flow_id = '" + FLOW + "' AND parent_intent_id = ''",
                "organisation_id = '" + ORG + "' AND flow_id = '" + FLOW + "' AND parent_intent_id = '" + ROOT + "'");
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, Column> field : IntentQueryController.INTENTS.sortable().entrySet()) {
            for (String scope : scopes) {
                for (boolean ascending : List.of(true, false)) {
                    String key = field.getValue().sql();
                    assertIndexOrdered(page("intent_view", scope, key, ascending, false));
                    assertIndexOnly(page("intent_view", scope, key, ascending, true));
                    checked.add(field.getKey());
                }
            }
        }
        assertThat(checked).hasSize(IntentQueryController.INTENTS.sortable().size() * 3 * 2);
    }

    @Test
    void givenOneHundredThousandSentences_whenListingByEverySortFieldWithAndWithoutALocale_thenIndexScansInOrder() {
        List<String> scopes = List.of(
                "organisation_id = '" + ORG + "' AND intent_id = '" + INTENT + "'",
                "organisation_id = '" + ORG + "' AND intent_id = '" + INTENT + "' AND locale_id = '" + EN + "'");
        for (Column column : IntentQueryController.SENTENCES.sortable().values()) {
            for (String scope : scopes) {
                for (boolean ascending : List.of(true, false)) {
                    assertIndexOrdered(page("sentence_view", scope, column.sql(), ascending, false));
                    assertIndexOnly(page("sentence_view", scope, column.sql(), ascending, true));
                }
            }
        }
    }

    @Test
    void givenAPageOfIntents_whenReadingTheirSentenceCountsAndSubtrees_thenIndexLookupsOnly() {
        // the counts of a page of intents in the locales of a fallback chain
        assertThat(plan("SELECT intent_id, locale_id, sentence_count FROM intent_sentence_count "
                + "WHERE intent_id = ANY(ARRAY['" + INTENT + "', '" + ROOT + "']) AND locale_id = ANY(ARRAY['" + EN + "'])"))
                .doesNotContain("Seq Scan").contains("intent_sentence_count_pkey");
        // one level of the descendants of a page of roots (includeChildren): ROOT's 4,500 children
        assertIndexOnly("SELECT * FROM intent_view WHERE flow_id = '" + FLOW + "' AND organisation_id = '" + ORG
                + "' AND parent_intent_id = ANY(ARRAY['" + ROOT + "', 'i00000000000000000000010']) ORDER BY created_at, id");
    }
}
