package ai.convo.command.voiceassistant;

import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Link keys in {@code voice_assistant_link_key}. The JdbcTemplate joins the command's transaction, so a key
 * row and the event naming it commit (or roll back) together.
 */
@Component
class JdbcLinkKeys implements LinkKeys {

    private final JdbcTemplate jdbc;

    JdbcLinkKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public SecretKey create(String linkId, String accountId, long at) {
        SecretKey key = TokenCipher.newKey();
        jdbc.update("INSERT INTO voice_assistant_link_key (link_id, account_id, key_bytes, created_at) VALUES (?, ?, ?, ?)",
                linkId, accountId, key.getEncoded(), at);
        return key;
    }

    @Override
    public Optional<SecretKey> find(String linkId) {
        List<byte[]> found = jdbc.queryForList("SELECT key_bytes FROM voice_assistant_link_key WHERE link_id = ?",
                byte[].class, linkId);
        return found.stream().findFirst().map(TokenCipher::key);
    }

    @Override
    public void destroy(String linkId) {
        jdbc.update("DELETE FROM voice_assistant_link_key WHERE link_id = ?", linkId);
    }
}
