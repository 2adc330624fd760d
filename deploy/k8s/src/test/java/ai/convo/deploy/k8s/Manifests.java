package ai.convo.deploy.k8s;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where the manifests are, and small accessors for rendered resources (plain maps). */
final class Manifests {

    /** deploy/k8s (the module's directory, where Maven runs the tests). */
    static final Path K8S = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    static final Path COMPOSE = K8S.getParent().resolve("compose.yaml");
    /** What is rendered and checked: the base and each overlay. */
    static final List<String> TREES = List.of("base", "overlays/local", "overlays/production");

    private Manifests() {
    }

    static List<Map<String, Object>> render(String tree) {
        return Kustomization.render(K8S.resolve(tree));
    }

    /** Everything the build checks about one tree (base or an overlay) of a copy of deploy/k8s at {@code k8s}. */
    static List<String> problems(Path k8s, String tree) {
        List<Map<String, Object>> resources = Kustomization.render(k8s.resolve(tree));
        List<String> problems = new ArrayList<>();
        resources.forEach(r -> problems.addAll(ApiSchema.validate(r)));
        problems.addAll(Consistency.check(resources, Consistency.PROFILES.get(tree)));
        return problems;
    }

    static String name(Map<String, Object> resource) {
        return resource.get("metadata") instanceof Map<?, ?> metadata ? String.valueOf(metadata.get("name")) : "?";
    }

    static String kind(Map<String, Object> resource) {
        return String.valueOf(resource.get("kind"));
    }

    static String describe(Map<String, Object> resource) {
        return kind(resource) + " " + name(resource);
    }

    static List<Map<String, Object>> ofKind(List<Map<String, Object>> resources, String kind) {
        return resources.stream().filter(r -> kind.equals(r.get("kind"))).toList();
    }

    static Optional<Map<String, Object>> find(List<Map<String, Object>> resources, String kind, String name) {
        return ofKind(resources, kind).stream().filter(r -> name.equals(name(r))).findFirst();
    }

    /** The value at a path of mapping keys, or null. */
    static Object get(Object root, String... path) {
        Object value = root;
        for (String key : path) {
            if (!(value instanceof Map<?, ?> map)) {
                return null;
            }
            value = map.get(key);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> getMap(Object root, String... path) {
        return get(root, path) instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    /** The mappings of a list (an absent list: none). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Object list) {
        List<Map<String, Object>> maps = new ArrayList<>();
        if (list instanceof List<?> l) {
            for (Object element : l) {
                if (element instanceof Map<?, ?> map) {
                    maps.add((Map<String, Object>) map);
                }
            }
        }
        return maps;
    }

    /** Deployments and StatefulSets: what runs pods here. */
    static List<Map<String, Object>> workloads(List<Map<String, Object>> resources) {
        return resources.stream().filter(r -> List.of("Deployment", "StatefulSet").contains(kind(r))).toList();
    }

    /** The pod templates of a resource (spec.template of workloads). */
    static List<Map<String, Object>> podTemplates(Map<String, Object> resource) {
        Map<String, Object> template = getMap(resource, "spec", "template");
        return template.isEmpty() ? List.of() : List.of(template);
    }

    /** The containers and init containers of a pod template. */
    static List<Map<String, Object>> containers(Map<String, Object> template) {
        List<Map<String, Object>> containers = new ArrayList<>(maps(get(template, "spec", "containers")));
        containers.addAll(maps(get(template, "spec", "initContainers")));
        return containers;
    }

    static Map<String, Object> templateLabels(Map<String, Object> workload) {
        return getMap(workload, "spec", "template", "metadata", "labels");
    }

    /** The image without its tag or digest. */
    static String imageName(Object image) {
        String s = String.valueOf(image);
        int at = s.indexOf('@');
        if (at >= 0) {
            s = s.substring(0, at);
        }
        int colon = s.lastIndexOf(':');
        return colon > s.lastIndexOf('/') ? s.substring(0, colon) : s;
    }
}
