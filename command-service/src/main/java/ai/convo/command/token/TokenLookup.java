package ai.convo.command.token;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.contract.token.TokenCreatedEvent;
import ai.convo.contract.token.TokenDeletedEvent;
import ai.convo.contract.token.TokenUpdatedEvent;
import java.util.List;
import java.util.Optional;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The labels of each project's custom tokens, for the "unique per project, ignoring case" rule. Written in the
 * same transaction as the token events (subscribing processor); the unique index on (project, lower(label))
 * settles two concurrent requests that both passed the check.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class TokenLookup implements TokenLabels {

    private final JdbcTemplate jdbc;

    public TokenLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<String> holderOf(String projectId, String label) {
        List<String> found = jdbc.queryForList("SELECT token_id FROM cmd_token_lookup WHERE project_id = ? "
                + "AND lower(label) = lower(?)", String.class, projectId, label);
        return found.stream().findFirst();
    }

    @EventHandler
    void on(TokenCreatedEvent event) {
        jdbc.update("INSERT INTO cmd_token_lookup (token_id, project_id, label) VALUES (?, ?, ?)",
                event.tokenId(), event.projectId(), event.label());
    }

    @EventHandler
    void on(TokenUpdatedEvent event) {
        jdbc.update("UPDATE cmd_token_lookup SET label = ? WHERE token_id = ?", event.label(), event.tokenId());
    }

    @EventHandler
    void on(TokenDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_token_lookup WHERE token_id = ?", event.tokenId());
    }

    @EventHandler
    void on(ProjectDeletedEvent event) {
        jdbc.update("DELETE FROM cmd_token_lookup WHERE project_id = ?", event.projectId());
    }
}
