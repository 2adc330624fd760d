package ai.convo.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The first admin and API key the command service creates on its very first start. Environment values win; missing
 * ones come from the saved file, else are generated. The file only ever gains keys, never changes them, so it keeps
 * describing what the service was actually bootstrapped with.
 */
record BootstrapCredentials(String adminEmail, String adminPassword, String apiKey) {

    static final String EMAIL = "BOOTSTRAP_ADMIN_EMAIL";
    static final String PASSWORD = "BOOTSTRAP_ADMIN_PASSWORD";
    static final String API_KEY = "BOOTSTRAP_API_KEY";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
    private static final String LOWER = "abcdefghijkmnopqrstuvwxyz";
    private static final String DIGITS = "23456789";

    static BootstrapCredentials resolve(Map<String, String> env, Path file) throws IOException {
        Map<String, String> saved = Files.exists(file) ? read(file) : Map.of();
        Map<String, String> effective = new LinkedHashMap<>();
        effective.put(EMAIL, pick(EMAIL, env, saved, () -> "admin@example.com"));
        effective.put(PASSWORD, pick(PASSWORD, env, saved, BootstrapCredentials::newPassword));
        effective.put(API_KEY, pick(API_KEY, env, saved, BootstrapCredentials::newApiKey));
        if (!saved.keySet().containsAll(effective.keySet())) {
            Map<String, String> merged = new LinkedHashMap<>(effective);
            merged.putAll(saved);
            write(file, merged);
        }
        return new BootstrapCredentials(effective.get(EMAIL), effective.get(PASSWORD), effective.get(API_KEY));
    }

    Map<String, String> asEnv() {
        return Map.of(EMAIL, adminEmail, PASSWORD, adminPassword, API_KEY, apiKey);
    }

    private static String pick(String key, Map<String, String> env, Map<String, String> saved,
                               Supplier<String> generate) {
        String fromEnv = env.get(key);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        String fromFile = saved.get(key);
        return fromFile != null && !fromFile.isBlank() ? fromFile : generate.get();
    }

    /** 20 letters and digits, at least one of each kind; no look-alike characters, nothing a shell would mangle. */
    static String newPassword() {
        String all = UPPER + LOWER + DIGITS;
        while (true) {
            StringBuilder password = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                password.append(all.charAt(RANDOM.nextInt(all.length())));
            }
            String p = password.toString();
            if (p.chars().anyMatch(c -> UPPER.indexOf(c) >= 0) && p.chars().anyMatch(c -> LOWER.indexOf(c) >= 0)
                    && p.chars().anyMatch(c -> DIGITS.indexOf(c) >= 0)) {
                return p;
            }
        }
    }

    static String newApiKey() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static Map<String, String> read(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String trimmed = line.strip();
            int eq = trimmed.indexOf('=');
            if (!trimmed.startsWith("#") && eq > 0) {
                values.put(trimmed.substring(0, eq).strip(), trimmed.substring(eq + 1).strip());
            }
        }
        return values;
    }

    private static void write(Path file, Map<String, String> values) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        // Created with mode 600 from the start, then renamed into place: never briefly world-readable.
        Path tmp = posix
                ? Files.createTempFile(dir, "bootstrap", ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile(dir, "bootstrap", ".tmp");
        StringBuilder text = new StringBuilder(
                "# First admin and API key the command service was bootstrapped with (used on its first start only).\n");
        for (String key : List.of(EMAIL, PASSWORD, API_KEY)) {
            text.append(key).append('=').append(values.get(key)).append('\n');
        }
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
