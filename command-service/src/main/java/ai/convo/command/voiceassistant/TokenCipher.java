package ai.convo.command.voiceassistant;

import ai.convo.contract.voiceassistant.SealedToken;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for voice-assistant tokens. The link id and the field name are authenticated with the ciphertext,
 * so a sealed token cannot be passed off as another link's or as the other token of the same link.
 */
final class TokenCipher {

    static final String NAME = "AES-256-GCM";
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private TokenCipher() {
    }

    static SecretKey newKey() {
        try {
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256, RANDOM);
            return generator.generateKey();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256 is not available", e);
        }
    }

    static SecretKey key(byte[] bytes) {
        return new SecretKeySpec(bytes, "AES");
    }

    static SealedToken seal(SecretKey key, String linkId, String field, String token) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(linkId, field));
            byte[] sealed = cipher.doFinal(token.getBytes(StandardCharsets.UTF_8));
            Base64.Encoder base64 = Base64.getEncoder();
            return new SealedToken(base64.encodeToString(nonce), base64.encodeToString(sealed));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Sealing a token failed", e);
        }
    }

    /** The token, or empty when the sealed value does not open with this key (wrong key, link, field, or tampering). */
    static Optional<String> open(SecretKey key, String linkId, String field, SealedToken sealed) {
        try {
            Base64.Decoder base64 = Base64.getDecoder();
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, base64.decode(sealed.nonce())));
            cipher.updateAAD(associatedData(linkId, field));
            return Optional.of(new String(cipher.doFinal(base64.decode(sealed.ciphertext())), StandardCharsets.UTF_8));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static byte[] associatedData(String linkId, String field) {
        return (linkId + ":" + field).getBytes(StandardCharsets.UTF_8);
    }
}
