package ai.convo.command.locale;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import ai.convo.command.web.CommandSideProcessing;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which project a locale belongs to, so that PATCH /locales/{id} can address the project aggregate.
 * Written in the same transaction as the events (subscribing processor), so it is never stale. The routes the
 * controller takes are also remembered ({@link #routeOf}): a locale never moves to another project, so a remembered
 * route is right while the locale exists, and the project aggregate itself answers for one that no longer does.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
public class LocaleLookup {

    /** Beyond this many routes, all are forgotten: each costs one look-up to learn again. */
    private static final int ROUTES = 50_000;

    private final JdbcTemplate jdbc;
    private final Map<String, String> routes = new ConcurrentHashMap<>();

    public LocaleLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The project to send a command about the locale to: remembered, or looked up and then remembered. A command
     * that finds no such locale there must {@link #forget} the route and ask again, for the locale may be gone.
     */
    public Optional<String> routeOf(String localeId) {
        String remembered = routes.get(localeId);
        if (remembered != null) {
            return Optional.of(remembered);
        }
        Optional<String> found = projectOf(localeId);
        found.ifPresent(projectId -> {
            if (routes.size() >= ROUTES) {
                routes.clear();
            }
            routes.put(localeId, projectId);
        });
        return found;
    }

    /** Forgets the locale's route; whether one was remembered. */
    public boolean forget(String localeId) {
        return routes.remove(localeId) != null;
    }

    public Optional<String> projectOf(String localeId) {
        List<String> found = jdbc.queryForList("SELECT project_id FROM cmd_locale_lookup WHERE locale_id = ?",
                String.class, localeId);
        return found.stream().findFirst();
    }

    /** The locale of the project with this referenceId. */
    public Optional<String> byReference(String projectId, String referenceId) {
        return jdbc.queryForList("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ? AND reference_id = ?",
                String.class, projectId, referenceId).stream().findFirst();
    }

    @EventHandler
    void on(LocaleCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_locale_lookup (locale_id, project_id, reference_id) VALUES (?, ?, ?)",
                event.localeId(), event.projectId(), event.referenceId());
    }

    @EventHandler
    void on(LocaleDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_locale_lookup WHERE locale_id = ?", event.localeId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_locale_lookup WHERE project_id = ?", event.projectId());
    }
}
