package ai.convo.localpg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Picks and prepares the cluster directory, falling back to /var/tmp when root's unprivileged user can't reach it. */
final class DataDirectory {

    private static final System.Logger LOG = System.getLogger(LocalPostgres.class.getName());

    private DataDirectory() {
    }

    static Path prepare(Path requested, boolean root) {
        try {
            if (!root) {
                Files.createDirectories(requested);
                return requested;
            }
            Path data = requested;
            Files.createDirectories(requested.getParent());
            if (!Privileges.reachableByUnprivileged(requested.getParent())) {
                Path fallbackRoot = Path.of("/var/tmp", "convo-" + shortHash(requested.toString()));
                Files.createDirectories(fallbackRoot);
                LocalPostgres.makeWorldReadable(fallbackRoot);
                data = fallbackRoot.resolve("pgdata");
                LOG.log(System.Logger.Level.WARNING, "Running as root: PostgreSQL must run as uid "
                        + LocalPostgres.UNPRIVILEGED_ID + ", which cannot reach " + requested
                        + " (a parent directory lacks o+x). The database lives in " + data + " instead.");
            }
            Files.createDirectories(data);
            Privileges.chownToUnprivileged(data);
            return data;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare PostgreSQL data directory " + requested, e);
        }
    }

    static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
