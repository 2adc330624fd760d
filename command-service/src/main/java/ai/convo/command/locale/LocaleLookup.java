package ai.convo.command.locale;

import ai.convo.contract.locale.LocaleCreatedEvent;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Optional;
import ai.convo.command.web.CommandSideProcessing;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which project a locale belongs to, so that PATCH /locales/{id} can address the project aggregate.
 * Written in the same transaction as the events (subscribing processor), so it is never stale.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
public class LocaleLookup {

    private final JdbcTemplate jdbc;

    public LocaleLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<String> projectOf(String localeId) {
        List<String> found = jdbc.queryForList("SELECT project_id FROM cmd_locale_lookup WHERE locale_id = ?",
                String.class, localeId);
        return found.stream().findFirst();
    }

    @EventHandler
    void on(LocaleCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_locale_lookup (locale_id, project_id) VALUES (?, ?)",
                event.localeId(), event.projectId());
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
