package ai.convo.localpg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/** Root handling: PostgreSQL refuses to run as root, so as root we run it as uid/gid 65534 ("nobody"). */
final class Privileges {

    private static final int OTHERS_X = 0001;
    private static final int GROUP_X = 0010;
    private static final int OWNER_X = 0100;

    private Privileges() {
    }

    /** Only Linux matters: that is where we drop privileges with setpriv. */
    static boolean isRoot() {
        if (!System.getProperty("os.name").toLowerCase().contains("linux")) {
            return false;
        }
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        } catch (LinkageError e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** Whether uid/gid 65534 (without supplementary groups) can reach {@code dir}: every ancestor needs x. */
    static boolean reachableByUnprivileged(Path dir) throws IOException {
        for (Path p = dir.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (!Files.exists(p)) {
                continue;
            }
            Map<String, Object> attrs = Files.readAttributes(p, "unix:mode,uid,gid");
            int mode = (Integer) attrs.get("mode");
            int uid = (Integer) attrs.get("uid");
            int gid = (Integer) attrs.get("gid");
            int id = LocalPostgres.UNPRIVILEGED_ID;
            boolean ok = uid == id ? (mode & OWNER_X) != 0 : gid == id ? (mode & GROUP_X) != 0 : (mode & OTHERS_X) != 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    static void chownToUnprivileged(Path dir) throws IOException {
        int id = LocalPostgres.UNPRIVILEGED_ID;
        if (Integer.valueOf(id).equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))) {
            return;
        }
        chownTreeToUnprivileged(dir);
    }

    /** Every file under {@code dir}, whoever owns {@code dir} itself (a copy made as root). */
    static void chownTreeToUnprivileged(Path dir) throws IOException {
        int id = LocalPostgres.UNPRIVILEGED_ID;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setAttribute(p, "unix:uid", id, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(p, "unix:gid", id, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }
}
