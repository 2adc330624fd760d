package ai.convo.http.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/** Hashing of credentials: a fast hash for high-entropy API keys, a slow one (BCrypt) for passwords. */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    public static final BCryptPasswordEncoder PASSWORDS = new BCryptPasswordEncoder(10);

    private Secrets() {
    }

    public static String hashApiKey(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** 48 hex characters: 192 bits of entropy, so a plain SHA-256 is a safe way to store it. */
    public static String newApiKey() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
