package ai.convo.command.intent;

import ai.convo.command.flow.FlowLookup;
import ai.convo.command.locale.LocaleLookup;
import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.common.Actor;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentLocales;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The write side's table of intents (cmd_intent_lookup: flow, name, parent) and of locales (cmd_intent_locale:
 * primary, fallback), written by a subscribing processor in the same transaction as the events, so it is
 * never stale; the unique index on (flow_id, lower(name)) settles races between two creates.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class IntentLookup implements IntentDirectory {

    /** Recursion bound of the ancestor walk; the write model never lets a chain form a cycle. */
    static final int MAX_DEPTH = 10_000;

    private final JdbcTemplate jdbc;
    private final FlowLookup flows;
    private final LocaleLookup locales;

    public IntentLookup(JdbcTemplate jdbc, FlowLookup flows, LocaleLookup locales) {
        this.jdbc = jdbc;
        this.flows = flows;
        this.locales = locales;
    }

    // ---- IntentDirectory

    @Override
    public FlowLookup.Flow requireVisibleFlow(String flowId, Actor actor) {
        return flows.requireVisible(flowId, actor);
    }

    @Override
    public Optional<IntentEntry> intent(String intentId) {
        return jdbc.query("SELECT intent_id, flow_id, name, parent_intent_id FROM cmd_intent_lookup WHERE intent_id = ?",
                (row, n) -> new IntentEntry(row.getString(1), row.getString(2), row.getString(3), row.getString(4)),
                intentId).stream().findFirst();
    }

    @Override
    public Optional<IntentEntry> intentNamed(String flowId, String name) {
        return jdbc.query("SELECT intent_id, flow_id, name, parent_intent_id FROM cmd_intent_lookup "
                        + "WHERE flow_id = ? AND lower(name) = lower(?)",
                (row, n) -> new IntentEntry(row.getString(1), row.getString(2), row.getString(3), row.getString(4)),
                flowId, name).stream().findFirst();
    }

    @Override
    public List<String> ancestorsOf(String intentId) {
        return jdbc.queryForList("""
                WITH RECURSIVE up (intent_id, parent_intent_id, depth) AS (
                    SELECT intent_id, parent_intent_id, 1 FROM cmd_intent_lookup WHERE intent_id = ?
                    UNION ALL
                    SELECT l.intent_id, l.parent_intent_id, up.depth + 1
                    FROM cmd_intent_lookup l JOIN up ON l.intent_id = up.parent_intent_id
                    WHERE up.depth < ?)
                SELECT parent_intent_id FROM up WHERE parent_intent_id IS NOT NULL ORDER BY depth""",
                String.class, intentId, MAX_DEPTH);
    }

    @Override
    public Optional<String> projectOfLocale(String localeId) {
        return locales.projectOf(localeId);
    }

    // ---- for the web layer and the flow lock

    /** The direct children of an intent. */
    /** The intents of a flow, by id. */
    public List<String> intentsOf(String flowId) {
        return jdbc.queryForList("SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? ORDER BY intent_id",
                String.class, flowId);
    }

    public List<String> childrenOf(String intentId) {
        return jdbc.queryForList("SELECT intent_id FROM cmd_intent_lookup WHERE parent_intent_id = ? ORDER BY intent_id",
                String.class, intentId);
    }

    /**
     * Locks the flow's row of cmd_flow_lookup until the command's transaction ends. Exclusively (FOR UPDATE) for
     * the commands that change the intent tree of one flow, so they run one after the other: a cycle check then
     * sees every parent change committed before it, and a deletion sees every child. Shared (FOR SHARE) for the
     * other intent and sentence commands, which may run side by side but never beside a tree change of their
     * flow or the flow's deletion (whose DELETE of the row waits for them).
     */
    public void lockFlow(String flowId, boolean exclusive) {
        jdbc.queryForList("SELECT flow_id FROM cmd_flow_lookup WHERE flow_id = ? FOR " + (exclusive ? "UPDATE" : "SHARE"),
                String.class, flowId);
    }

    /** The project's primary locale, if this side has seen it. */
    public Optional<String> primaryLocaleOfIntent(String intentId) {
        return jdbc.queryForList("SELECT l.locale_id FROM cmd_intent_locale l JOIN cmd_intent_lookup i "
                + "ON l.project_id = i.project_id WHERE i.intent_id = ? AND l.is_primary", String.class, intentId)
                .stream().findFirst();
    }

    /**
     * The localeReference of an intent of {@code projectId} with these sentence counts per locale, for the
     * preferred locale (null: the primary one), by {@link IntentLocales}' rule.
     */
    public IntentLocales.Resolved resolveLocale(String projectId, String preferred, Map<String, Long> sentencesPerLocale) {
        Map<String, String> fallbackOf = new HashMap<>();
        String[] primary = {null};
        jdbc.query("SELECT locale_id, fallback_locale_id, is_primary FROM cmd_intent_locale WHERE project_id = ?",
                row -> {
                    fallbackOf.put(row.getString(1), row.getString(2));
                    if (row.getBoolean(3)) {
                        primary[0] = row.getString(1);
                    }
                }, projectId);
        List<String> chain = IntentLocales.chain(preferred != null ? preferred : primary[0], fallbackOf);
        return IntentLocales.resolve(chain, primary[0], locale -> sentencesPerLocale.getOrDefault(locale, 0L));
    }

    // ---- intents

    @EventHandler
    void on(IntentCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_intent_lookup (intent_id, flow_id, organisation_id, project_id, name, parent_intent_id) "
                        + "VALUES (?, ?, ?, ?, ?, ?)", event.intentId(), event.flowId(), event.organisationId(),
                event.projectId(), event.name(), event.parentIntentId());
    }

    @EventHandler
    void on(IntentUpdatedEvent event) {
        jdbc.update("UPDATE cmd_intent_lookup SET name = ?, parent_intent_id = ? WHERE intent_id = ?",
                event.name(), event.parentIntentId(), event.intentId());
    }

    @EventHandler
    void on(IntentDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_intent_lookup WHERE intent_id = ?", event.intentId());
    }

    @EventHandler
    void on(FlowDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_intent_lookup WHERE flow_id = ?", event.flowId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_intent_lookup WHERE project_id = ?", event.projectId());
        jdbc.update("DELETE FROM cmd_intent_locale WHERE project_id = ?", event.projectId());
    }

    // ---- locales (primary and fallback, for localeReference)

    @EventHandler
    void on(LocaleCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_intent_locale (locale_id, project_id, fallback_locale_id, is_primary) VALUES (?, ?, ?, ?) "
                        + "ON CONFLICT (locale_id) DO NOTHING", event.localeId(), event.projectId(),
                event.fallbackLocaleReference(), event.primary());
    }

    @EventHandler
    void on(LocaleUpdatedEvent event) {
        // Most updates rename a locale: the event says so, and a statement that changes nothing is still a round
        // trip in the command's transaction. (An event without changedFields may have changed anything.)
        if (event.changedFields() != null && !event.changedFields().contains("fallbackLocaleReference")
                && !event.changedFields().contains("primary")) {
            return;
        }
        // Writing an unchanged row would still cost a new row version and its WAL.
        jdbc.update("UPDATE cmd_intent_locale SET fallback_locale_id = ?, is_primary = ? WHERE locale_id = ? "
                        + "AND (fallback_locale_id IS DISTINCT FROM ? OR is_primary IS DISTINCT FROM ?)",
                event.fallbackLocaleReference(), event.primary(), event.localeId(), event.fallbackLocaleReference(),
                event.primary());
    }

    @EventHandler
    void on(PrimaryLocaleChangedEvent event) {
        jdbc.update("UPDATE cmd_intent_locale SET is_primary = (locale_id = ?) WHERE project_id = ?",
                event.primaryLocaleId(), event.projectId());
    }

    @EventHandler
    void on(LocaleDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_intent_locale WHERE locale_id = ?", event.localeId());
    }
}
