package ai.convo.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The build's renderer against real kustomize: where kubectl is on the PATH, {@code kubectl kustomize} must render
 * each tree (and the renderer's fixture) to the same resources, compared as parsed trees keyed by
 * apiVersion/kind/namespace/name, in any order. Skipped without kubectl (CI has only a JDK).
 */
class KubectlCrossCheckTest {

    static final Path FIXTURE = Manifests.K8S.resolve("src/test/resources/kustomize/overlay");

    static Stream<Path> directories() {
        return Stream.concat(Manifests.TREES.stream().map(Manifests.K8S::resolve), Stream.of(FIXTURE));
    }

    @ParameterizedTest
    @MethodSource("directories")
    void rendersWhatKustomizeRenders(Path directory) throws Exception {
        Path kubectl = kubectl();
        assumeTrue(kubectl != null, "kubectl is not on the PATH");
        Map<String, Object> expected = byId(Yaml.loadAll(kustomize(kubectl, directory), "kubectl kustomize"));
        Map<String, Object> actual = byId(new ArrayList<>(Kustomization.render(directory)));
        assertEquals(expected.keySet(), actual.keySet(), directory + ": the resources differ");
        for (String id : expected.keySet()) {
            String difference = difference(expected.get(id), actual.get(id), id);
            if (difference != null) {
                fail(directory + ": " + difference);
            }
        }
    }

    private static Map<String, Object> byId(List<Object> documents) {
        Map<String, Object> byId = new TreeMap<>();
        for (Object document : documents) {
            Map<String, Object> resource = Yaml.map(document, "a rendered resource");
            if (byId.put(Kustomization.id(resource), resource) != null) {
                fail("rendered twice: " + Kustomization.id(resource));
            }
        }
        return byId;
    }

    /** The first difference, with its path; null when equal. Lists compare in order. */
    static String difference(Object expected, Object actual, String path) {
        if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            for (Object key : e.keySet()) {
                if (!a.containsKey(key)) {
                    return path + "." + key + ": kustomize has " + e.get(key) + ", the renderer nothing";
                }
                String difference = difference(e.get(key), a.get(key), path + "." + key);
                if (difference != null) {
                    return difference;
                }
            }
            for (Object key : a.keySet()) {
                if (!e.containsKey(key)) {
                    return path + "." + key + ": the renderer has " + a.get(key) + ", kustomize nothing";
                }
            }
            return null;
        }
        if (expected instanceof List<?> e && actual instanceof List<?> a && e.size() == a.size()) {
            for (int i = 0; i < e.size(); i++) {
                String difference = difference(e.get(i), a.get(i), path + "[" + i + "]");
                if (difference != null) {
                    return difference;
                }
            }
            return null;
        }
        return Objects.equals(expected, actual) ? null
                : path + ": kustomize has " + Yaml.describe(expected) + ", the renderer " + Yaml.describe(actual);
    }

    private static String kustomize(Path kubectl, Path directory) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("kubectl", ".err");
        try {
            Process process = new ProcessBuilder(kubectl.toString(), "kustomize", directory.toString())
                    .redirectError(errors.toFile()).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                fail("kubectl kustomize " + directory + " failed: " + Files.readString(errors));
            }
            return new String(output, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    private static Path kubectl() {
        for (String entry : Objects.toString(System.getenv("PATH"), "").split(File.pathSeparator)) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, "kubectl");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
