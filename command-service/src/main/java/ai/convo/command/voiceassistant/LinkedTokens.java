package ai.convo.command.voiceassistant;

import ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.springframework.stereotype.Component;

/**
 * The one way to read a link's tokens back: from its event and its key. After an unlink (or a replacing link)
 * the key is gone and this answers empty: an audit replay of the whole log runs through, it just cannot see
 * erased tokens.
 */
@Component
class LinkedTokens {

    record Tokens(String accessToken, String refreshToken) {
        @Override
        public String toString() {
            return "Tokens[(hidden)]";
        }
    }

    private final LinkKeys keys;

    LinkedTokens(LinkKeys keys) {
        this.keys = keys;
    }

    Optional<Tokens> open(VoiceAssistantLinkedEvent event) {
        Optional<SecretKey> key = keys.find(event.linkId());
        if (key.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> access = TokenCipher.open(key.get(), event.linkId(), "accessToken", event.accessToken());
        Optional<String> refresh = TokenCipher.open(key.get(), event.linkId(), "refreshToken", event.refreshToken());
        return access.isPresent() && refresh.isPresent()
                ? Optional.of(new Tokens(access.get(), refresh.get())) : Optional.empty();
    }
}
