package ai.convo.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceProcessTest {

    @TempDir
    static Path dir;
    static Path jar;

    /** A jar whose manifest points at this module's test classes, so the child runs {@link ServiceStub}. */
    @BeforeAll
    static void buildStubJar() throws Exception {
        Path classes = Path.of(ServiceStub.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        jar = dir.resolve("stub.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, ServiceStub.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, dir.relativize(classes) + "/");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // manifest only
        }
    }

    @Test
    void startsWaitsForHealthAndKills() throws Exception {
        int port = freePort();
        Path log = dir.resolve("logs/stub.log");
        ServiceProcess service = ServiceProcess.start("stub", jar, Map.of("SERVER_PORT", Integer.toString(port)),
                List.of("-Xmx64m"), log);

        service.awaitHealthy(URI.create("http://127.0.0.1:" + port + "/new/health"), Duration.ofSeconds(30));
        assertTrue(service.isAlive());
        assertTrue(service.pid() > 0);

        service.kill();
        assertFalse(service.isAlive());
        assertEquals(137, service.exitCode());
        assertTrue(Files.readString(log).contains("stub starting"));
    }

    @Test
    void stopIsGraceful() throws Exception {
        int port = freePort();
        ServiceProcess service = ServiceProcess.start("stub", jar, Map.of("SERVER_PORT", Integer.toString(port)),
                List.of(), dir.resolve("logs/graceful.log"));
        service.awaitHealthy(URI.create("http://127.0.0.1:" + port + "/new/health"), Duration.ofSeconds(30));

        service.stop();

        assertFalse(service.isAlive());
        assertTrue(service.logTail(5).contains("stub stopping"), service.logTail(5));
    }

    @Test
    void earlyExitFailsTheWaitWithOnlyThisRunsLogLines() throws Exception {
        Path log = dir.resolve("logs/failing.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, "line from an earlier run\n");
        ServiceProcess service = ServiceProcess.start("failing", jar, Map.of("STUB_MODE", "fail"), List.of(), log);

        IllegalStateException error = assertThrows(IllegalStateException.class, () -> service.awaitHealthy(
                URI.create("http://127.0.0.1:" + freePort() + "/new/health"), Duration.ofSeconds(30)));

        assertTrue(error.getMessage().startsWith("failing exited with code 3"), error.getMessage());
        assertTrue(error.getMessage().contains("stub failing on purpose"), error.getMessage());
        assertFalse(error.getMessage().contains("earlier run"), error.getMessage());
    }

    @Test
    void missingJarIsReportedClearly() {
        IOException error = assertThrows(IOException.class, () -> ServiceProcess.start("ghost",
                dir.resolve("nope.jar"), Map.of(), List.of(), dir.resolve("ghost.log")));
        assertTrue(error.getMessage().contains("nope.jar not found"), error.getMessage());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
