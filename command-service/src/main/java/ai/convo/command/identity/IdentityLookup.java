package ai.convo.command.identity;

import ai.convo.contract.identity.ApiKeyIssuedEvent;
import ai.convo.contract.identity.ApiKeyRevokedEvent;
import ai.convo.contract.identity.FailedLoginAttemptsResetEvent;
import ai.convo.contract.identity.OrganisationCreatedEvent;
import ai.convo.contract.identity.UserRegisteredEvent;
import ai.convo.command.web.CommandSideProcessing;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The identity tables that authentication reads. Kept by a subscribing processor, i.e. in the same
 * transaction as the events: a new key works and a revoked key is refused the moment the command returns.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class IdentityLookup {

    private final JdbcTemplate jdbc;

    public IdentityLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public boolean emailTaken(String email) {
        Integer count = jdbc.queryForObject("SELECT count(*) FROM identity_user WHERE email = ?", Integer.class, email);
        return count != null && count > 0;
    }

    public boolean anyUser() {
        Integer count = jdbc.queryForObject("SELECT count(*) FROM identity_user", Integer.class);
        return count != null && count > 0;
    }

    @EventHandler
    void on(OrganisationCreatedEvent event) {
        jdbc.update("INSERT INTO identity_organisation (id, name, created_by, created_at) VALUES (?, ?, ?, ?)",
                event.organisationId(), event.name(), event.createdBy(), event.createdAt());
    }

    @EventHandler
    void on(UserRegisteredEvent event) {
        jdbc.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)", event.userId(), event.organisationId(), event.email(),
                event.passwordHash(), event.role().name(), event.createdAt());
    }

    @EventHandler
    void on(ApiKeyIssuedEvent event) {
        jdbc.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)", event.apiKeyId(), event.userId(), event.organisationId(),
                event.label(), event.keyHash(), event.createdAt());
    }

    @EventHandler
    void on(ApiKeyRevokedEvent event) {
        jdbc.update("UPDATE identity_api_key SET revoked_at = ? WHERE id = ?", event.revokedAt(), event.apiKeyId());
    }

    /** A lifted lock: the user's e-mail may sign in at once, its failures forgotten (its next success recorded). */
    @EventHandler
    void on(FailedLoginAttemptsResetEvent event) {
        jdbc.update("UPDATE login_throttle SET failures = 0, locked_until = 0, last_success_at = 0 "
                + "WHERE email = (SELECT email FROM identity_user WHERE id = ?)", event.userId());
    }
}
