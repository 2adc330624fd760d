package ai.convo.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The image tarballs as a container runtime would see them: each is unpacked layer by layer into a directory (the
 * image's root file system), then checked. Skipped when the images were not built (they are with -Pe2e or -Pimages).
 */
class ImagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of(System.getProperty("images.root", "../.."));

    @TempDir
    Path work;

    @ParameterizedTest
    @CsvSource({
            "command-service, ai.convo.command.CommandServiceApplication, 8081, 9081",
            "query-service,   ai.convo.query.QueryServiceApplication,     8082, 9082",
            "deploy/gateway,  ai.convo.gateway.GatewayApplication,        8080, 9080"})
    void an_image_runs_its_service_as_a_non_root_user_on_its_own_runtime(String module, String mainClass, int port,
                                                                           int managementPort) throws Exception {
        Image image = unpack(module);

        assertEquals("10001:10001", image.config.path("User").asString(), "never root");
        assertEquals("1970-01-01T00:00:00Z", image.created, "reproducible: no build time in the image");
        List<String> entrypoint = image.config.path("Entrypoint").valueStream().map(JsonNode::asString).toList();
        assertEquals("/opt/java/bin/java", entrypoint.get(0));
        assertEquals(mainClass, entrypoint.get(entrypoint.size() - 1));
        assertTrue(image.config.path("ExposedPorts").has(port + "/tcp"));
        assertTrue(image.config.path("ExposedPorts").has(managementPort + "/tcp"));
        assertTrue(Files.readString(image.root.resolve("etc/passwd")).contains(":10001:10001:"));

        // Every jar and directory of the classpath is in the image, and the main class with it.
        List<String> classpath = List.of(Files.readString(image.root.resolve("app/jib-classpath-file")).trim().split(":"));
        assertTrue(classpath.size() > 50, "the dependencies are there");
        for (String entry : classpath) {
            assertTrue(Files.exists(image.inside(entry)), entry + " is on the classpath but not in the image");
        }
        assertTrue(Files.exists(image.root.resolve("app/classes/" + mainClass.replace('.', '/') + ".class")));

        // The runtime needs no library from outside the image: ask the image's own loader where each shared object
        // of the runtime resolves, with the image's library directory first; anything found elsewhere is missing.
        List<Path> objects;
        try (Stream<Path> files = Files.walk(image.root.resolve("opt/java"))) {
            objects = files.filter(f -> f.toString().endsWith(".so") || f.getParent().endsWith("bin"))
                    .filter(f -> !Headless.skipped(f.getFileName().toString())).toList();
        }
        assertTrue(objects.size() > 10);
        for (Path object : objects) {
            String listing = run(List.of(image.loader().toString(), "--inhibit-cache", "--library-path",
                    image.libraries(), "--list", object.toString()));
            for (String line : listing.lines().toList()) {
                String resolved = line.contains("=>") ? line.split("=>")[1].trim().split(" ")[0] : "";
                assertTrue(resolved.isEmpty() || resolved.startsWith(image.root.toString()),
                        object.getFileName() + " needs a library the image lacks: " + line.trim());
            }
        }
    }

    @Test
    void the_gateway_starts_from_its_image_and_answers_its_probes() throws Exception {
        Image image = unpack("deploy/gateway");
        String classpath = String.join(":", Stream.of(
                        Files.readString(image.root.resolve("app/jib-classpath-file")).trim().split(":"))
                .map(entry -> image.inside(entry).toString()).toList());
        int port = freePort();
        int managementPort = freePort();
        List<String> command = new ArrayList<>(List.of(image.loader().toString(), "--inhibit-cache", "--library-path",
                image.libraries(), image.root.resolve("opt/java/bin/java").toString(), "-Xmx128m",
                "-Djava.io.tmpdir=" + work, "-cp", classpath, "ai.convo.gateway.GatewayApplication"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve("gateway.log").toFile());
        builder.environment().clear();
        builder.environment().putAll(java.util.Map.of("SERVER_PORT", String.valueOf(port),
                "MANAGEMENT_PORT", String.valueOf(managementPort), "AXONIQ_UPDATE_CHECKER_DISABLED", "true",
                "COMMAND_SERVICE_URI", "http://localhost:1", "QUERY_SERVICE_URI", "http://localhost:1"));
        Process gateway = builder.start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> liveness = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (liveness == null && gateway.isAlive() && System.nanoTime() < deadline) {
                try {
                    liveness = http.send(HttpRequest.newBuilder(URI.create(
                                    "http://localhost:" + managementPort + "/actuator/health/liveness"))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                } catch (IOException notYetListening) {
                    Thread.sleep(250);
                }
            }
            String log = Files.readString(work.resolve("gateway.log"));
            assertTrue(liveness != null, "the gateway never answered its liveness probe:\n" + log);
            assertEquals(200, liveness.statusCode());
            assertTrue(liveness.body().contains("\"UP\""));
            // No command service behind it: the API port answers with the gateway's own problem body.
            HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create(
                    "http://localhost:" + port + "/new/v2.0/projects")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, read.statusCode(), read.body());
            assertTrue(read.headers().firstValue("Retry-After").isPresent());
        } finally {
            gateway.destroy();
            if (!gateway.waitFor(20, TimeUnit.SECONDS)) {
                gateway.destroyForcibly();
            }
        }
    }

    private Image unpack(String module) throws Exception {
        assumeTrue(Boolean.getBoolean("images.built"), "images not built (-Pe2e or -Pimages builds them)");
        Path tarball = ROOT.resolve(module).resolve("target/jib-image.tar");
        assertTrue(Files.isRegularFile(tarball), tarball + " was not built");
        Path archive = Files.createDirectories(work.resolve(module.replace('/', '-') + "-archive"));
        Path root = Files.createDirectories(work.resolve(module.replace('/', '-') + "-root"));
        run(List.of("tar", "-xf", tarball.toString(), "-C", archive.toString()));
        JsonNode manifest = JSON.readTree(archive.resolve("manifest.json").toFile()).get(0);
        for (JsonNode layer : manifest.path("Layers")) {
            run(List.of("tar", "-xzf", archive.resolve(layer.asString()).toString(), "-C", root.toString()));
        }
        JsonNode config = JSON.readTree(archive.resolve(manifest.path("Config").asString()).toFile());
        return new Image(root, config.path("config"), config.path("created").asString());
    }

    private static String run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        // tar warns about libarchive's extended headers; only a failure matters
        assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + output);
        return output;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private record Image(Path root, JsonNode config, String created) {
        Path inside(String absolute) {
            return root.resolve(absolute.substring(1));
        }

        Path loader() {
            return root.resolve("lib64/ld-linux-x86-64.so.2");
        }

        String libraries() {
            return root.resolve("lib/x86_64-linux-gnu") + ":" + root.resolve("opt/java/lib") + ":"
                    + root.resolve("opt/java/lib/server");
        }
    }

    /** java.desktop's graphics and sound libraries, which runtime.sh deliberately leaves unsatisfied. */
    private static final class Headless {
        static boolean skipped(String name) {
            return List.of("libawt_xawt.so", "libsplashscreen.so", "libfontmanager.so", "libjawt.so", "liblcms.so",
                    "libjavajpeg.so", "libmlib_image.so", "libawt.so", "libjsound.so").contains(name);
        }
    }
}
