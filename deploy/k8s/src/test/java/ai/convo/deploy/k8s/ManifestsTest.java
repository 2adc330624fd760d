package ai.convo.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The real manifests: each tree renders, matches the Kubernetes API schemas and fits together. */
class ManifestsTest {

    static final List<String> TREES = Manifests.TREES;

    @ParameterizedTest
    @FieldSource("TREES")
    void rendersValidAndConsistent(String tree) {
        List<String> problems = Manifests.problems(Manifests.K8S, tree);
        assertTrue(problems.isEmpty(), () -> tree + ":\n  " + String.join("\n  ", problems));
    }

    @Test
    void overlaysRenderWhatTheyAreFor() {
        List<Map<String, Object>> local = Manifests.render("overlays/local");
        assertEquals("postgres:17", Manifests.get(Manifests.find(local, "StatefulSet", "postgres").orElseThrow(),
                "spec", "template", "spec", "containers") instanceof List<?> c
                ? ((Map<?, ?>) c.get(0)).get("image") : null);
        assertEquals("NodePort", Manifests.get(Manifests.find(local, "Service", "gateway").orElseThrow(), "spec", "type"));
        assertEquals(2, Manifests.ofKind(local, "Secret").size());

        List<Map<String, Object>> production = Manifests.render("overlays/production");
        assertTrue(Manifests.find(production, "Cluster", "convo-db").isPresent());
        assertTrue(Manifests.ofKind(production, "Secret").isEmpty(), "production renders no Secret");
        assertTrue(Manifests.ofKind(production, "StatefulSet").isEmpty(), "production runs no PostgreSQL of its own");
        Map<String, Object> config = Manifests.getMap(Manifests.find(production, "ConfigMap", "convo-config")
                .orElseThrow(), "data");
        assertEquals("convo-db-rw", config.get("DB_HOST"));
        assertEquals("convo-db-ro", config.get("DB_READ_HOST"));
        assertNull(Manifests.get(Manifests.find(production, "Service", "gateway").orElseThrow(), "spec", "type"),
                "production's gateway Service is a ClusterIP (expose it with the cluster's own ingress)");
    }

    @Test
    void composeMatchesTheLocalOverlay() {
        List<String> problems = Compose.check(Yaml.loadMap(Manifests.COMPOSE), Manifests.render("overlays/local"));
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }
}
