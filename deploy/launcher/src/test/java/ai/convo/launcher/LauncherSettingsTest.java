package ai.convo.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class LauncherSettingsTest {

    @Test
    void defaultsToEmbeddedDatabaseAndDataUnderTheRoot() {
        LauncherSettings settings = LauncherSettings.from(Map.of(), "/srv/convo");

        assertEquals(Path.of("/srv/convo/.data"), settings.dataDir());
        assertEquals(8080, settings.gatewayPort());
        assertEquals(8081, settings.commandPort());
        assertEquals(8082, settings.queryPort());
        assertEquals(54329, settings.embeddedDbPort());
        assertTrue(settings.externalDatabase().isEmpty());
    }

    @Test
    void externalDatabaseAndPortsFromEnvironment() {
        LauncherSettings settings = LauncherSettings.from(Map.of("DB_HOST", "db.local", "DB_PASSWORD", "s3cret",
                "PORT", "9000", "COMMAND_PORT", "9001", "QUERY_PORT", "9002", "DATA_DIR", "/tmp/convo-data"), null);

        assertEquals(Optional.of(new LauncherSettings.Database("db.local", 5432, "convo", "postgres", "s3cret")),
                settings.externalDatabase());
        assertEquals(Path.of("/tmp/convo-data"), settings.dataDir());
        assertEquals(9000, settings.gatewayPort());
        assertEquals(Path.of("").toAbsolutePath(), settings.root());
    }
}
