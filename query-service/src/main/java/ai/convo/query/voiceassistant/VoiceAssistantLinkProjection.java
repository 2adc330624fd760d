package ai.convo.query.voiceassistant;

import ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent;
import ai.convo.contract.voiceassistant.VoiceAssistantUnlinkedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The live link of each voice-assistant account; plain code that a test can feed events. It keeps the link's
 * meta only and never opens the sealed tokens, so a replay after erasure (keys gone) runs exactly as before.
 * An account's events are one aggregate's, hence in order: the default per-aggregate sequencing suffices.
 */
@Component
@ProcessingGroup(VoiceAssistantLinkProjection.GROUP)
public class VoiceAssistantLinkProjection {

    public static final String GROUP = "voice-assistant-links";

    private final JdbcTemplate jdbc;

    public VoiceAssistantLinkProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    public void on(VoiceAssistantLinkedEvent event) {
        jdbc.update("INSERT INTO voice_assistant_link_view (account_id, link_id, voice_assistant, user_id, "
                        + "organisation_id, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (account_id) DO UPDATE SET link_id = excluded.link_id, "
                        + "created_at = excluded.created_at, created_by = excluded.created_by",
                event.accountId(), event.linkId(), event.voiceAssistant(), event.userId(), event.organisationId(),
                event.linkedAt(), event.linkedBy());
    }

    @EventHandler
    public void on(VoiceAssistantUnlinkedEvent event) {
        jdbc.update("DELETE FROM voice_assistant_link_view WHERE link_id = ?", event.linkId());
    }
}
