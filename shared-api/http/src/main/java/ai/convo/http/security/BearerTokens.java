package ai.convo.http.security;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

/**
 * Builds a JWT decoder for one issuer from configuration: a JWK set URL or an RSA public key (PEM),
 * plus the expected issuer and audience. Unconfigured means the scheme is refused.
 */
public final class BearerTokens {

    private BearerTokens() {
    }

    public record Settings(String jwkSetUri, String publicKey, String issuer, String audience) {
        public boolean configured() {
            return notBlank(jwkSetUri) || notBlank(publicKey);
        }
    }

    public static ReactiveJwtDecoder decoder(Settings settings) {
        if (settings == null || !settings.configured()) {
            return null;
        }
        NimbusReactiveJwtDecoder decoder = notBlank(settings.jwkSetUri())
                ? NimbusReactiveJwtDecoder.withJwkSetUri(settings.jwkSetUri()).build()
                : NimbusReactiveJwtDecoder.withPublicKey(rsaPublicKey(settings.publicKey())).build();
        List<OAuth2TokenValidator<Jwt>> validators = new ArrayList<>();
        validators.add(new JwtTimestampValidator());
        if (notBlank(settings.issuer())) {
            validators.add(new JwtIssuerValidator(settings.issuer()));
        }
        if (notBlank(settings.audience())) {
            validators.add(new JwtClaimValidator<List<String>>("aud",
                    aud -> aud != null && aud.contains(settings.audience())));
        }
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(validators));
        return decoder;
    }

    public static RSAPublicKey rsaPublicKey(String pem) {
        String base64 = pem.replace("-----BEGIN PUBLIC KEY-----", "")
                .replace("-----END PUBLIC KEY-----", "")
                .replaceAll("\\s", "");
        try {
            byte[] der = Base64.getDecoder().decode(base64.getBytes(StandardCharsets.US_ASCII));
            return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        } catch (Exception e) {
            throw new IllegalArgumentException("The configured JWT public key is not an RSA public key in PEM form", e);
        }
    }

    private static boolean notBlank(String value) {
        return value != null && !value.isBlank();
    }
}
