package ai.convo.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * Mints JWTs the way an OAuth 2.0 issuer and a contact-center platform would, with keys made for this JVM.
 * Services under test are configured with {@link #bearerPublicKeyPem()} and {@link #contactCenterPublicKeyPem()}.
 */
public final class TestTokens {

    public static final String BEARER_ISSUER = "https://issuer.test";
    public static final String CONTACT_CENTER_ISSUER = "https://contact-center.test";

    private static final KeyPair BEARER = generate();
    private static final KeyPair CONTACT_CENTER = generate();
    private static final KeyPair STRANGER = generate();

    private TestTokens() {
    }

    public static String bearerPublicKeyPem() {
        return pem(BEARER);
    }

    public static String contactCenterPublicKeyPem() {
        return pem(CONTACT_CENTER);
    }

    public static String bearer(String userId) {
        return sign(BEARER, BEARER_ISSUER, userId, Instant.now().plusSeconds(300));
    }

    public static String contactCenter(String userId) {
        return sign(CONTACT_CENTER, CONTACT_CENTER_ISSUER, userId, Instant.now().plusSeconds(300));
    }

    public static String expiredBearer(String userId) {
        return sign(BEARER, BEARER_ISSUER, userId, Instant.now().minusSeconds(3600));
    }

    /** Signed by a key nobody configured: must be refused. */
    public static String forgedBearer(String userId) {
        return sign(STRANGER, BEARER_ISSUER, userId, Instant.now().plusSeconds(300));
    }

    private static String sign(KeyPair key, String issuer, String subject, Instant expires) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), new JWTClaimsSet.Builder()
                    .issuer(issuer)
                    .subject(subject)
                    .issueTime(Date.from(expires.minusSeconds(600)))
                    .expirationTime(Date.from(expires))
                    .build());
            jwt.sign(new RSASSASigner(key.getPrivate()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(KeyPair key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }
}
