package ai.convo.command.identity;

import ai.convo.contract.identity.ApiKeyIssuedEvent;
import ai.convo.contract.identity.ApiKeyRevokedEvent;
import ai.convo.contract.identity.FailedLoginAttemptsResetEvent;
import ai.convo.contract.identity.OrganisationCreatedEvent;
import ai.convo.contract.identity.UserRegisteredEvent;
import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.identity.UserChangedEvent;
import ai.convo.contract.identity.UserCreatedEvent;
import ai.convo.contract.identity.UserDeletedEvent;
import ai.convo.contract.identity.UserRoleAddedEvent;
import ai.convo.contract.identity.UserRoleRemovedEvent;
import ai.convo.contract.member.MemberAddedEvent;
import ai.convo.contract.member.MemberLocalesChangedEvent;
import ai.convo.contract.member.MemberRemovedEvent;
import ai.convo.contract.member.MemberRoleAddedEvent;
import ai.convo.contract.member.MemberRoleRemovedEvent;
import java.util.ArrayList;
import java.util.List;
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

    /** Active administrators of the organisation other than this user. */
    public int otherActiveAdmins(String organisationId, String userId) {
        Integer count = jdbc.queryForObject("SELECT count(*) FROM identity_user WHERE organisation_id = ? AND id <> ? "
                + "AND deleted_at IS NULL AND NOT disabled AND (role IN ('ORG_ADMIN', 'SYSTEM_ADMIN') "
                + "OR 'admin' = ANY(roles))", Integer.class, organisationId, userId);
        return count == null ? 0 : count;
    }

    public boolean projectOf(String projectId, String organisationId) {
        Integer count = jdbc.queryForObject("SELECT count(*) FROM cmd_project_lookup WHERE project_id = ? "
                + "AND organisation_id = ?", Integer.class, projectId, organisationId);
        return count != null && count > 0;
    }

    /** Those of the ids that are no locale of the project. */
    public List<String> localesNotOf(String projectId, List<String> localeIds) {
        List<String> of = jdbc.queryForList("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?",
                String.class, projectId);
        List<String> not = new ArrayList<>(localeIds);
        not.removeAll(of);
        return not;
    }

    /** Kept outside the event log (V18__users_members.sql), in the command's transaction. */
    public void setPassword(String userId, String passwordHash, long at) {
        jdbc.update("INSERT INTO identity_password (user_id, password_hash, changed_at) VALUES (?, ?, ?) "
                + "ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, "
                + "changed_at = EXCLUDED.changed_at", userId, passwordHash, at);
    }

    @EventHandler
    void on(UserCreatedEvent event) {
        jdbc.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at, name, roles) "
                        + "VALUES (?, ?, ?, '', 'MEMBER', ?, ?, ?::text[])", event.userId(), event.organisationId(),
                event.email(), event.createdAt(), event.name(), array(event.roles()));
    }

    @EventHandler
    void on(UserChangedEvent event) {
        jdbc.update("UPDATE identity_user SET name = ?, email = ?, disabled = ? WHERE id = ?", event.name(),
                event.email(), event.disabled(), event.userId());
    }

    /** Its keys are revoked with it, so nothing it held works again even if the row were restored. */
    @EventHandler
    void on(UserDeletedEvent event) {
        jdbc.update("UPDATE identity_user SET deleted_at = ? WHERE id = ?", event.deletedAt(), event.userId());
        jdbc.update("UPDATE identity_api_key SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                event.deletedAt(), event.userId());
        jdbc.update("DELETE FROM identity_member WHERE user_id = ?", event.userId());
    }

    @EventHandler
    void on(UserRoleAddedEvent event) {
        jdbc.update("UPDATE identity_user SET roles = array_append(roles, ?) WHERE id = ? AND NOT (? = ANY(roles))",
                event.role(), event.userId(), event.role());
    }

    @EventHandler
    void on(UserRoleRemovedEvent event) {
        jdbc.update("UPDATE identity_user SET roles = array_remove(roles, ?) WHERE id = ?", event.role(),
                event.userId());
    }

    @EventHandler
    void on(MemberAddedEvent event) {
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                        + "VALUES (?, ?, ?, ?::text[], ?, ?) ON CONFLICT DO NOTHING", event.projectId(), event.userId(),
                event.organisationId(), array(event.roles()), event.addedBy(), event.addedAt());
    }

    @EventHandler
    void on(MemberRemovedEvent event) {
        jdbc.update("DELETE FROM identity_member WHERE project_id = ? AND user_id = ?", event.projectId(),
                event.userId());
    }

    @EventHandler
    void on(MemberRoleAddedEvent event) {
        jdbc.update("UPDATE identity_member SET roles = array_append(roles, ?) WHERE project_id = ? AND user_id = ? "
                + "AND NOT (? = ANY(roles))", event.role(), event.projectId(), event.userId(), event.role());
    }

    @EventHandler
    void on(MemberRoleRemovedEvent event) {
        jdbc.update("UPDATE identity_member SET roles = array_remove(roles, ?) WHERE project_id = ? AND user_id = ?",
                event.role(), event.projectId(), event.userId());
    }

    @EventHandler
    void on(MemberLocalesChangedEvent event) {
        jdbc.update("UPDATE identity_member SET allowed_locales = ?::text[] WHERE project_id = ? AND user_id = ?",
                event.allowedLocales() == null ? null : array(event.allowedLocales()), event.projectId(),
                event.userId());
    }

    /** A PostgreSQL array literal of plain names (roles and ids have no quotes, commas or braces). */
    static String array(List<String> values) {
        return "{" + String.join(",", values) + "}";
    }
}
