package ai.convo.deploy.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The schema check can fail: each mistake below is one the API server would refuse. */
class ApiSchemaTest {

    private static final List<Map<String, Object>> LOCAL = Manifests.render("overlays/local");

    @Test
    void theRenderedDeploymentIsValid() {
        assertEquals(List.of(), ApiSchema.validate(deployment(d -> { })));
    }

    @Test
    void refusesAnUnknownField() {
        // the generated validation's own message, then the type walk's with its path
        assertProblem(deployment(d -> spec(d).put("replica", 2)),
                "The field `replica` in the JSON string is not defined in the `V1DeploymentSpec` properties");
        assertProblem(deployment(d -> spec(d).put("replica", 2)), "Deployment command-service.spec.replica");
        assertProblem(deployment(d -> container(d).put("imagePullPolicyy", "Always")), "imagePullPolicyy");
    }

    @Test
    void refusesAMissingRequiredField() {
        assertProblem(deployment(d -> container(d).remove("name")), "The required field `name` is not found");
        assertProblem(deployment(d -> spec(d).remove("selector")), "The required field `selector` is not found");
    }

    @Test
    void refusesWrongTypes() {
        // the generated validation checks neither numbers nor booleans: the walk does
        assertProblem(deployment(d -> port(d).put("containerPort", "x")), "ports[0].containerPort: expected Integer");
        assertProblem(deployment(d -> port(d).put("containerPort", "8081")), "ports[0].containerPort: expected Integer");
        assertProblem(deployment(d -> Manifests.maps(container(d).get("env")).get(0).put("value", 5432)), "value");
        assertProblem(deployment(d -> Manifests.getMap(d, "metadata", "labels").put("version", 2)), "labels.version");
        assertProblem(deployment(d -> Manifests.getMap(container(d), "securityContext")
                .put("readOnlyRootFilesystem", "yes please")), "readOnlyRootFilesystem");
        assertProblem(deployment(d -> container(d).put("ports", Map.of("name", "http"))), "ports");
        assertProblem(deployment(d -> Manifests.getMap(container(d), "resources", "limits").put("memory", "768MB")),
                "memory");
        assertProblem(deployment(d -> spec(d).put("revisionHistoryLimit", null)), "null");
    }

    @Test
    void refusesNamesTheApiRefuses() {
        assertProblem(deployment(d -> port(d).put("name", "prometheus-metrics")), "port name");
        assertProblem(deployment(d -> Manifests.getMap(d, "metadata").put("name", "Command_Service")), "metadata.name");
    }

    @Test
    void refusesSecretDataThatIsNotBase64() {
        Map<String, Object> secret = Yaml.copy(Manifests.find(LOCAL, "Secret", "convo-database").orElseThrow());
        secret.put("data", Map.of("password", "not base64!"));
        assertProblem(secret, "data.password");
    }

    @Test
    void refusesKindsItDoesNotKnow() {
        assertProblem(Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", "x")), "not known");
        assertProblem(Map.of("apiVersion", "extensions/v1beta1", "kind", "Deployment", "metadata", Map.of("name", "x")),
                "not known");
        assertProblem(Map.of("apiVersion", "postgresql.cnpg.io/v1", "kind", "Backup", "metadata", Map.of("name", "x")),
                "not known");
    }

    @Test
    void checksTheCloudNativePgClusterSparingly() {
        Map<String, Object> cluster = Yaml.copy(Manifests.find(Manifests.render("overlays/production"), "Cluster",
                "convo-db").orElseThrow());
        assertEquals(List.of(), ApiSchema.validate(cluster));
        Map<String, Object> broken = Yaml.copy(cluster);
        Manifests.getMap(broken, "spec").put("instances", "three");
        assertProblem(broken, "spec.instances");
        broken = Yaml.copy(cluster);
        Manifests.getMap(broken, "spec", "bootstrap", "initdb").remove("owner");
        assertProblem(broken, "initdb");
    }

    private static void assertProblem(Map<String, Object> resource, String expected) {
        List<String> problems = ApiSchema.validate(resource);
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                () -> "expected a problem about `" + expected + "`, got " + problems);
    }

    private static Map<String, Object> deployment(Consumer<Map<String, Object>> change) {
        Map<String, Object> deployment = Yaml.copy(Manifests.find(LOCAL, "Deployment", "command-service").orElseThrow());
        change.accept(deployment);
        return deployment;
    }

    private static Map<String, Object> spec(Map<String, Object> deployment) {
        return Manifests.getMap(deployment, "spec");
    }

    private static Map<String, Object> container(Map<String, Object> deployment) {
        return Manifests.containers(Manifests.getMap(deployment, "spec", "template")).get(0);
    }

    private static Map<String, Object> port(Map<String, Object> deployment) {
        return Manifests.maps(container(deployment).get("ports")).get(0);
    }
}
