package ai.convo.query.systemmessage;

import ai.convo.contract.systemmessage.SystemMessageCreatedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import ai.convo.persistence.BatchingJdbcTemplate;
import org.springframework.stereotype.Component;

/** The system message read model; plain code that a test can feed events. Messages are never changed. */
@Component
@ProcessingGroup(SystemMessageProjection.GROUP)
public class SystemMessageProjection {

    public static final String GROUP = "system-messages";

    private final BatchingJdbcTemplate jdbc;

    public SystemMessageProjection(BatchingJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(SystemMessageCreatedEvent event) {
        jdbc.write("INSERT INTO system_message_view (id, message, until, show_on_login, created_at, last_changed, "
                        + "created_by, last_changed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.systemMessageId(), event.message(), event.until(), event.showOnLogin(), event.createdAt(),
                event.createdAt(), event.createdBy(), event.createdBy());
    }
}
