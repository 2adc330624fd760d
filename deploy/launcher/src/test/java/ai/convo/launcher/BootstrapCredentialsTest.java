package ai.convo.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapCredentialsTest {

    @TempDir
    Path dataDir;

    @Test
    void generatesAndSavesPrivately() throws Exception {
        Path file = dataDir.resolve("data/bootstrap.env");

        BootstrapCredentials generated = BootstrapCredentials.resolve(Map.of(), file);

        assertEquals("admin@example.com", generated.adminEmail());
        assertTrue(generated.adminPassword().matches("[A-Za-z0-9]{20}"), generated.adminPassword());
        assertTrue(generated.apiKey().matches("[0-9a-f]{48}"), generated.apiKey());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(Files.readString(file).contains("BOOTSTRAP_API_KEY=" + generated.apiKey()));
    }

    @Test
    void restartReusesSavedValues() throws Exception {
        Path file = dataDir.resolve("bootstrap.env");
        BootstrapCredentials first = BootstrapCredentials.resolve(Map.of(), file);

        BootstrapCredentials second = BootstrapCredentials.resolve(Map.of(), file);

        assertEquals(first, second);
    }

    @Test
    void environmentWinsButNeverRewritesTheFile() throws Exception {
        Path file = dataDir.resolve("bootstrap.env");
        BootstrapCredentials saved = BootstrapCredentials.resolve(Map.of(), file);
        String before = Files.readString(file);

        BootstrapCredentials fromEnv = BootstrapCredentials.resolve(Map.of(
                "BOOTSTRAP_ADMIN_EMAIL", "ops@convo.ai", "BOOTSTRAP_API_KEY", "env-key", "BOOTSTRAP_ADMIN_PASSWORD", " "),
                file);

        assertEquals(new BootstrapCredentials("ops@convo.ai", saved.adminPassword(), "env-key"), fromEnv);
        assertEquals(before, Files.readString(file));
    }

    @Test
    void firstRunRecordsEnvironmentValuesSoLaterRunsStillMatch() throws Exception {
        Path file = dataDir.resolve("bootstrap.env");
        BootstrapCredentials first = BootstrapCredentials.resolve(Map.of("BOOTSTRAP_API_KEY", "env-key"), file);

        BootstrapCredentials later = BootstrapCredentials.resolve(Map.of(), file);

        assertEquals("env-key", later.apiKey());
        assertEquals(first, later);
    }

    @Test
    void generatedValuesDifferEachTime() {
        assertNotEquals(BootstrapCredentials.newApiKey(), BootstrapCredentials.newApiKey());
        assertNotEquals(BootstrapCredentials.newPassword(), BootstrapCredentials.newPassword());
    }
}
