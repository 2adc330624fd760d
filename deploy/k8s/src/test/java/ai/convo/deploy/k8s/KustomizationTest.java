package ai.convo.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The renderer on its fixture (what kustomize renders, see KubectlCrossCheckTest) and what it refuses. */
class KustomizationTest {

    @TempDir
    Path dir;

    @Test
    void rendersTheFixture() {
        List<Map<String, Object>> resources = Kustomization.render(KubectlCrossCheckTest.FIXTURE);
        Map<String, Object> deployment = Manifests.find(resources, "Deployment", "app").orElseThrow();
        assertEquals(3, Manifests.get(deployment, "spec", "replicas"));
        assertEquals(Map.of("team", "platform"), Manifests.getMap(deployment, "metadata", "labels"));
        List<Map<String, Object>> containers = Manifests.containers(Manifests.getMap(deployment, "spec", "template"));
        // strategic merge: the patch's elements first, in its order, then the original's others
        assertEquals(List.of("sidecar", "app", "helper"), names(containers, "name"));
        Map<String, Object> app = containers.get(1);
        assertEquals(List.of("D", "B", "A", "C"), names(Manifests.maps(app.get("env")), "name"));
        assertEquals(List.of(9090, 8080), names(Manifests.maps(app.get("ports")), "containerPort"));
        assertEquals(List.of("/cache", "/tmp"), names(Manifests.maps(app.get("volumeMounts")), "mountPath"));
        assertEquals(List.of("--c"), app.get("args"));
        assertEquals(Map.of("requests", Map.of("cpu", "100m", "memory", "64Mi"), "limits", Map.of("memory", "64Mi")),
                app.get("resources"));
        assertEquals(List.of("mirror.example.com/sidecar:3", "example/app:2.0", "example/helper@sha256:"
                + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), names(containers, "image"));
        Map<String, Object> settings = Manifests.find(resources, "ConfigMap", "settings").orElseThrow();
        assertEquals(Map.of("A", "1", "B", "three", "C", "four"), settings.get("data"));
        Map<String, Object> hpa = Manifests.find(resources, "HorizontalPodAutoscaler", "app").orElseThrow();
        assertEquals(4, Manifests.get(hpa, "spec", "maxReplicas"));
        assertEquals(null, Manifests.get(hpa, "metadata", "labels"), "labels of the base apply to the base only");
    }

    @Test
    void refusesWhatItDoesNotSupport() throws IOException {
        assertRefused("namespace: convo\nresources: [r.yaml]\n", "the field `namespace`");
        assertRefused("commonLabels: {a: b}\nresources: [r.yaml]\n", "the field `commonLabels`");
        assertRefused("configMapGenerator: [{name: x, literals: [a=b]}]\n", "the field `configMapGenerator`");
        assertRefused("resources: [r.yaml]\nlabels: [{pairs: {a: b}, includeSelectors: true}]\n", "includeSelectors");
        assertRefused("resources: [r.yaml]\nimages: [{name: x, digest: 'sha256:00'}]\n", "images");
        assertRefused("resources: [r.yaml]\npatches: [{path: p.yaml, target: {kind: ConfigMap}}]\n", "target");
        assertRefused("resources: [https://github.com/example/repo]\n", "only local files");
        assertRefused("resources: [r.yaml]\nreplicas: [{name: nothing, count: 2}]\n", "match nothing");
        assertRefused("resources: [../outside.yaml]\n", "outside the kustomization's directory");
        assertRefused("resources: [r.yaml, r.yaml]\n", "appears twice");
        Files.writeString(dir.resolve("p.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n");
        assertRefused("resources: [r.yaml]\npatches: [{path: p.yaml}]\n", "matches no resource");
        Files.writeString(dir.resolve("p.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: null}\n");
        assertRefused("resources: [r.yaml]\npatches: [{path: p.yaml}]\n", "deleting a with null");
        Files.writeString(dir.resolve("p.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n$patch: delete\n");
        assertRefused("resources: [r.yaml]\npatches: [{path: p.yaml}]\n", "the directive $patch");
    }

    private void assertRefused(String kustomization, String message) throws IOException {
        Path root = dir.resolve("k");
        Files.createDirectories(root);
        Files.writeString(root.resolve("kustomization.yaml"), kustomization);
        Files.writeString(root.resolve("r.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n");
        Files.writeString(dir.resolve("outside.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: o}\n");
        if (Files.exists(dir.resolve("p.yaml"))) {
            Files.copy(dir.resolve("p.yaml"), root.resolve("p.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kustomization.render(root),
                kustomization);
        assertTrue(e.getMessage().contains(message), () -> "expected `" + message + "` in: " + e.getMessage());
    }

    private static List<Object> names(List<Map<String, Object>> elements, String key) {
        return elements.stream().map(e -> e.get(key)).collect(Collectors.toList());
    }
}
