package ai.convo.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consistency checks can fail: each mistake below renders and validates, and would fail in a cluster. */
class ConsistencyTest {

    @Test
    void aServiceSelectingNothing() {
        assertProblem("overlays/local", r -> Manifests.getMap(find(r, "Service", "query-service"), "spec", "selector")
                .put("app.kubernetes.io/name", "query"), "selects no pod template");
    }

    @Test
    void aServiceExposingTheManagementPort() {
        assertProblem("overlays/local", r -> Manifests.maps(Manifests.get(find(r, "Service", "gateway"), "spec",
                "ports")).get(0).put("targetPort", "management"), "exposes the management port");
    }

    @Test
    void aProbeOnAPortTheContainerLacks() {
        assertProblem("overlays/production", r -> Manifests.getMap(container(r, "query-service"), "readinessProbe",
                "httpGet").put("port", "managment"), "is not a port of the container");
        assertProblem("overlays/production", r -> Manifests.getMap(container(r, "gateway"), "livenessProbe",
                "httpGet").put("port", "http"), "not the management port");
    }

    @Test
    void aSecretNobodyCreates() {
        assertProblem("overlays/production", r -> Manifests.getMap(env(container(r, "command-service"), "DB_PASSWORD"),
                "valueFrom", "secretKeyRef").put("name", "convo-database"), "is neither rendered nor provided");
        assertProblem("overlays/local", r -> Manifests.getMap(env(container(r, "query-service"), "DB_USERNAME"),
                "valueFrom", "secretKeyRef").put("key", "user"), "has no key user");
    }

    @Test
    void aConfigMapKeyNobodyReads() {
        assertProblem("overlays/production", r -> {
            Map<String, Object> data = Manifests.getMap(find(r, "ConfigMap", "convo-config"), "data");
            data.put("DB_READ_HOTS", data.remove("DB_READ_HOST"));
        }, "no container reads the key DB_READ_HOTS");
    }

    @Test
    void anAutoscalerOfNothing() {
        assertProblem("overlays/production", r -> Manifests.getMap(find(r, "HorizontalPodAutoscaler", "command-service"),
                "spec", "scaleTargetRef").put("name", "command"), "is not a rendered Deployment");
        assertProblem("overlays/production", r -> Manifests.getMap(find(r, "Deployment", "query-service"), "spec")
                .put("replicas", 3), "sets replicas although");
    }

    @Test
    void moreQueryReplicasThanSegments() {
        assertProblem("overlays/production", r -> Manifests.getMap(find(r, "HorizontalPodAutoscaler", "query-service"),
                "spec").put("maxReplicas", 6), "APP_EVENTS_SEGMENTS is 4");
        assertProblem("overlays/local", r -> Manifests.getMap(find(r, "ConfigMap", "convo-config"), "data")
                .put("APP_EVENTS_SEGMENTS", "0"), "APP_EVENTS_SEGMENTS is 0");
    }

    @Test
    void aDisruptionBudgetOfNothing() {
        assertProblem("base", r -> Manifests.getMap(find(r, "PodDisruptionBudget", "gateway"), "spec", "selector",
                "matchLabels").put("app.kubernetes.io/name", "gw"), "selects no rendered Deployment");
        assertProblem("overlays/local", r -> {
            Map<String, Object> spec = Manifests.getMap(find(r, "PodDisruptionBudget", "gateway"), "spec");
            spec.remove("maxUnavailable");
            spec.put("minAvailable", 1);
        }, "blocks every node drain");
    }

    @Test
    void aMemoryLimitAboveTheRequest() {
        assertProblem("overlays/production", r -> Manifests.getMap(container(r, "query-service"), "resources", "limits")
                .put("memory", "2Gi"), "the heap is 75% of the limit");
    }

    @Test
    void aWritableRootOrNoTmp() {
        assertProblem("overlays/local", r -> Manifests.getMap(container(r, "command-service"), "securityContext")
                .put("readOnlyRootFilesystem", false), "readOnlyRootFilesystem");
        assertProblem("overlays/local", r -> container(r, "gateway").remove("volumeMounts"), "emptyDir at /tmp");
    }

    @Test
    void aWrongUpstreamOrDatabase() {
        assertProblem("overlays/local", r -> Manifests.getMap(find(r, "ConfigMap", "convo-config"), "data")
                .put("QUERY_SERVICE_URI", "http://query-service:9082"), "does not reach query-service");
        assertProblem("overlays/local", r -> Manifests.getMap(find(r, "ConfigMap", "convo-config"), "data")
                .put("COMMAND_SERVICE_URI", "http://query-service:8082"), "does not reach command-service");
        assertProblem("overlays/local", r -> Manifests.getMap(find(r, "ConfigMap", "convo-config"), "data")
                .put("DB_HOST", "postgresql"), "DB_HOST postgresql:5432 is neither");
        assertProblem("overlays/production", r -> Manifests.getMap(find(r, "ConfigMap", "convo-config"), "data")
                .put("DB_READ_HOST", "convo-db-replicas"), "DB_READ_HOST convo-db-replicas");
        assertProblem("overlays/production", r -> Manifests.getMap(find(r, "Cluster", "convo-db"), "spec", "bootstrap",
                "initdb").put("database", "app"), "DB_NAME is not the database app");
    }

    @Test
    void replicaCountsOfTheOverlays() {
        assertProblem("overlays/local", r -> Manifests.getMap(find(r, "Deployment", "gateway"), "spec")
                .put("replicas", 2), "1 expected");
        assertProblem("overlays/production", r -> Manifests.getMap(find(r, "HorizontalPodAutoscaler",
                "command-service"), "spec").put("minReplicas", 1), "at least 2 replicas expected");
    }

    @Test
    void anUntaggedImage() {
        assertProblem("overlays/local", r -> Manifests.containers(Manifests.getMap(find(r, "StatefulSet", "postgres"),
                "spec", "template")).get(0).put("image", "postgres"), "has no version tag");
    }

    /** End to end: a mistake in a copy of the files fails the same check the real tree passes. */
    @Test
    void aBrokenCopyOfTheManifestsFails(@TempDir Path copy) throws IOException {
        for (String directory : List.of("base", "overlays")) {
            Path source = Manifests.K8S.resolve(directory);
            try (Stream<Path> files = Files.walk(source)) {
                for (Path file : files.toList()) {
                    Path target = copy.resolve(directory).resolve(source.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(file, target);
                    }
                }
            }
        }
        for (String tree : Manifests.TREES) {
            assertTrue(Manifests.problems(copy, tree).isEmpty(), tree + " of the copy should pass as is");
        }
        replace(copy.resolve("base/command-service.yaml"), "containerPort: 8081", "containerPort: \"8081\"");
        replace(copy.resolve("overlays/production/config.yaml"), "APP_EVENTS_SEGMENTS: \"4\"",
                "APP_EVENTS_SEGMENTS: \"3\"");
        replace(copy.resolve("overlays/local/postgres.yaml"), "  selector:\n    app.kubernetes.io/name: postgres",
                "  selector:\n    app.kubernetes.io/name: postgresql");
        assertProblems(Manifests.problems(copy, "base"), "containerPort");
        assertProblems(Manifests.problems(copy, "overlays/production"), "APP_EVENTS_SEGMENTS is 3");
        assertProblems(Manifests.problems(copy, "overlays/local"), "Service postgres: its selector");
    }

    private static void replace(Path file, String text, String replacement) throws IOException {
        String content = Files.readString(file);
        assertTrue(content.contains(text), file + " lacks " + text);
        Files.writeString(file, content.replace(text, replacement));
    }

    private static void assertProblem(String tree, Consumer<List<Map<String, Object>>> change, String expected) {
        List<Map<String, Object>> resources = Manifests.render(tree);
        assertTrue(Consistency.check(resources, Consistency.PROFILES.get(tree)).isEmpty(), tree + " as is");
        change.accept(resources);
        assertProblems(Consistency.check(resources, Consistency.PROFILES.get(tree)), expected);
    }

    private static void assertProblems(List<String> problems, String expected) {
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                () -> "expected a problem with `" + expected + "`, got " + problems);
    }

    static Map<String, Object> find(List<Map<String, Object>> resources, String kind, String name) {
        return Manifests.find(resources, kind, name).orElseThrow();
    }

    static Map<String, Object> container(List<Map<String, Object>> resources, String deployment) {
        return Manifests.containers(Manifests.getMap(find(resources, "Deployment", deployment), "spec", "template"))
                .get(0);
    }

    static Map<String, Object> env(Map<String, Object> container, String name) {
        return Manifests.maps(container.get("env")).stream().filter(e -> name.equals(e.get("name"))).findFirst()
                .orElseThrow();
    }
}
