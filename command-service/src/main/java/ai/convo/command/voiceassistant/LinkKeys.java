package ai.convo.command.voiceassistant;

import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * The per-link keys that voice-assistant tokens are sealed with, kept outside the event log. Called from the
 * aggregate's command handlers, so a key is created and destroyed in the same transaction as the event that
 * says so.
 */
interface LinkKeys {

    /** Creates, stores and answers a fresh key for a new link of the account. */
    SecretKey create(String linkId, String accountId, long at);

    /** The key of a link, or empty once it was destroyed (or never existed). */
    Optional<SecretKey> find(String linkId);

    /** Destroys the key of a link for good: its sealed tokens can never be opened again. */
    void destroy(String linkId);
}
