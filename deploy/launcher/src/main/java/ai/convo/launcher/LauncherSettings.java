package ai.convo.launcher;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Everything the launcher reads from the environment, with the local defaults. */
record LauncherSettings(Path root, Path dataDir, int gatewayPort, int commandPort, int queryPort,
                        int embeddedDbPort, Optional<Database> externalDatabase, boolean embeddedReadReplica) {

    /** Connection settings handed to the services as DB_* variables. */
    record Database(String host, int port, String name, String username, String password) {

        Map<String, String> asEnv() {
            return Map.of("DB_HOST", host, "DB_PORT", Integer.toString(port), "DB_NAME", name,
                    "DB_USERNAME", username, "DB_PASSWORD", password);
        }
    }

    static LauncherSettings from(Map<String, String> env, String convoHome) {
        Path root = Path.of(convoHome != null && !convoHome.isBlank() ? convoHome : "").toAbsolutePath().normalize();
        Path dataDir = Optional.ofNullable(blankToNull(env.get("DATA_DIR"))).map(Path::of).orElse(root.resolve(".data"))
                .toAbsolutePath().normalize();
        Optional<Database> external = Optional.ofNullable(blankToNull(env.get("DB_HOST"))).map(host -> new Database(
                host, intValue(env, "DB_PORT", 5432), env.getOrDefault("DB_NAME", "convo"),
                env.getOrDefault("DB_USERNAME", "postgres"), env.getOrDefault("DB_PASSWORD", "")));
        return new LauncherSettings(root, dataDir, intValue(env, "PORT", 8080), intValue(env, "COMMAND_PORT", 8081),
                intValue(env, "QUERY_PORT", 8082), intValue(env, "EMBEDDED_DB_PORT", 54329), external,
                Boolean.parseBoolean(env.getOrDefault("EMBEDDED_DB_READ_REPLICA", "false").strip()));
    }

    Path logDir() {
        return dataDir.resolve("logs");
    }

    private static int intValue(Map<String, String> env, String key, int fallback) {
        String value = blankToNull(env.get(key));
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, was '" + value + "'");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
