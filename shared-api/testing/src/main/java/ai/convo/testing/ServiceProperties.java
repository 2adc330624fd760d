package ai.convo.testing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/** The settings a service under test needs: its database and the two JWT issuers of {@link TestTokens}. */
public final class ServiceProperties {

    private ServiceProperties() {
    }

    /** Hands each property to {@code registry}, e.g. {@code ServiceProperties.of(db, registry::add)}. */
    public static void of(TestDatabase.Settings db, BiConsumer<String, Supplier<Object>> registry) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("app.db.host", db.host());
        properties.put("app.db.port", db.port());
        properties.put("app.db.name", db.database());
        properties.put("app.db.username", db.username());
        properties.put("app.db.password", db.password() == null ? "" : db.password());
        properties.put("app.security.bearer.public-key", TestTokens.bearerPublicKeyPem());
        properties.put("app.security.bearer.issuer", TestTokens.BEARER_ISSUER);
        properties.put("app.security.contact-center.public-key", TestTokens.contactCenterPublicKeyPem());
        properties.put("app.security.contact-center.issuer", TestTokens.CONTACT_CENTER_ISSUER);
        // a management port of its own for every test context (several run in one JVM)
        properties.put("management.server.port", 0);
        properties.forEach((name, value) -> registry.accept(name, () -> value));
    }
}
