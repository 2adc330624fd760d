package ai.convo.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The compose check can fail: compose.yaml drifting from the local overlay is caught. */
class ComposeTest {

    @Test
    void aDifferentValue() {
        assertProblem(c -> env(c, "query-service").put("APP_READINESS_MAXLAG", "1000"),
                "APP_READINESS_MAXLAG is 1000, the local overlay's is 100");
    }

    @Test
    void aMissingOrExtraVariable() {
        assertProblem(c -> env(c, "gateway").remove("GATEWAY_RESPONSE_TIMEOUT"), "GATEWAY_RESPONSE_TIMEOUT is missing");
        assertProblem(c -> env(c, "gateway").put("GATEWAY_TIMEOUT", "60s"), "GATEWAY_TIMEOUT is not set in the local");
        assertProblem(c -> env(c, "query-service").put("DB_READ_HOST", "postgres"), "leaves it unset");
    }

    @Test
    void aManagementPortPublished() {
        assertProblem(c -> Manifests.getMap(c, "services", "command-service").put("ports", List.of("9081:9081")),
                "publishes [9081]");
    }

    @Test
    void credentialsThatDoNotFitTheDatabase() {
        assertProblem(c -> env(c, "command-service").put("DB_PASSWORD", "${DB_PASS:-convo}"), "POSTGRES_PASSWORD");
    }

    @Test
    void anotherImage() {
        assertProblem(c -> Manifests.getMap(c, "services", "gateway").put("image", "convo/gateway:latest"),
                "image convo/gateway:latest");
    }

    private static void assertProblem(Consumer<Map<String, Object>> change, String expected) {
        Map<String, Object> compose = Yaml.loadMap(Manifests.COMPOSE);
        List<Map<String, Object>> local = Manifests.render("overlays/local");
        assertTrue(Compose.check(compose, local).isEmpty(), "compose.yaml as is");
        change.accept(compose);
        List<String> problems = Compose.check(compose, local);
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                () -> "expected a problem with `" + expected + "`, got " + problems);
    }

    private static Map<String, Object> env(Map<String, Object> compose, String service) {
        return Manifests.getMap(compose, "services", service, "environment");
    }
}
