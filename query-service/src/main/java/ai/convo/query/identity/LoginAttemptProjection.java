package ai.convo.query.identity;

import ai.convo.contract.identity.LoginFailedEvent;
import ai.convo.contract.identity.LoginSucceededEvent;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.springframework.stereotype.Component;

/** Users' password sign-ins; plain code a test can feed events. An attempt is its event, by the event's id. */
@Component
@ProcessingGroup(LoginAttemptProjection.GROUP)
public class LoginAttemptProjection {

    public static final String GROUP = "login-attempts";

    private final BatchingJdbcTemplate jdbc;

    public LoginAttemptProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(LoginFailedEvent event, EventMessage<?> message) {
        insert(message.getIdentifier(), event.userId(), event.organisationId(), "failed", event.occurredAt(),
                event.location());
    }

    @EventHandler
    public void on(LoginSucceededEvent event, EventMessage<?> message) {
        insert(message.getIdentifier(), event.userId(), event.organisationId(), "success", event.occurredAt(),
                event.location());
    }

    private void insert(String id, String userId, String organisationId, String status, long at, String location) {
        jdbc.write("INSERT INTO login_attempt_view (id, user_id, organisation_id, status, occurred_at, location) "
                + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING", id, userId, organisationId, status, at,
                location);
    }
}
