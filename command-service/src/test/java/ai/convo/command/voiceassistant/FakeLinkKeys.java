package ai.convo.command.voiceassistant;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;

/** Link keys in memory, for the fixture tests; the real ones are rows of voice_assistant_link_key. */
final class FakeLinkKeys implements LinkKeys {

    final Map<String, SecretKey> keys = new HashMap<>();

    @Override
    public SecretKey create(String linkId, String accountId, long at) {
        if (keys.containsKey(linkId)) {
            throw new IllegalStateException("a key for link " + linkId + " exists already");
        }
        SecretKey key = TokenCipher.newKey();
        keys.put(linkId, key);
        return key;
    }

    @Override
    public Optional<SecretKey> find(String linkId) {
        return Optional.ofNullable(keys.get(linkId));
    }

    @Override
    public void destroy(String linkId) {
        keys.remove(linkId);
    }
}
