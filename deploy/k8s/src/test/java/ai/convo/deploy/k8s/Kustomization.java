package ai.convo.deploy.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small kustomize: renders a kustomization directory the way {@code kubectl kustomize} does, for the few features
 * deploy/k8s uses, so that the build can check the manifests with only a JDK. Anything else is refused with an error
 * naming it, so that a feature added to the manifests cannot be skipped silently ({@code KubectlCrossCheckTest}
 * compares the output with real kustomize wherever kubectl is installed).
 *
 * <p>Supported: {@code resources} (files of one or more documents inside the kustomization's directory, and
 * directories with a kustomization.yaml), {@code labels} (pairs, without selectors or templates), {@code images}
 * (name, newName, newTag), {@code replicas} and {@code patches} with a {@code path} only: strategic merge patches
 * of built-in kinds, each document naming its target by apiVersion, kind and name. Transformers run in kustomize's
 * order: patches, labels, replicas, images.
 *
 * <p>Strategic merge as kustomize does it for these kinds: mappings merge recursively; the lists Kubernetes declares
 * a merge key for (containers, env, volumeMounts, ports, ...) merge element by element, the patch's elements first,
 * in the patch's order, then the original's others; all other lists are replaced. Deleting (null), {@code $patch}
 * directives and merging into lists with retainKeys (volumes, a Deployment's strategy) are refused.
 */
final class Kustomization {

    static final String FILE = "kustomization.yaml";

    private static final Set<String> FIELDS = Set.of("apiVersion", "kind", "resources", "labels", "images", "replicas",
            "patches");
    /** Kinds strategic merge may patch: built-in kinds whose merge keys are listed in {@link #mergeKey}. */
    private static final Set<String> PATCHABLE = Set.of("ConfigMap", "Secret", "Service", "Deployment", "StatefulSet",
            "PodDisruptionBudget", "HorizontalPodAutoscaler");
    private static final Set<String> SCALABLE = Set.of("Deployment", "StatefulSet", "ReplicaSet",
            "ReplicationController");

    private Kustomization() {
    }

    /** The resources the kustomization in {@code directory} renders to, in order of appearance. */
    static List<Map<String, Object>> render(Path directory) {
        return render(directory.toAbsolutePath().normalize(), new ArrayDeque<>());
    }

    static String id(Map<String, Object> resource) {
        Map<String, Object> metadata = Yaml.map(resource.get("metadata"), "metadata");
        return resource.get("apiVersion") + "/" + resource.get("kind") + "/"
                + Objects.toString(metadata.get("namespace"), "") + "/" + metadata.get("name");
    }

    private static List<Map<String, Object>> render(Path directory, Deque<Path> visiting) {
        if (visiting.contains(directory)) {
            throw new IllegalArgumentException(directory + ": kustomizations include each other: " + visiting);
        }
        Path file = directory.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            for (String other : List.of("kustomization.yml", "Kustomization")) {
                if (Files.exists(directory.resolve(other))) {
                    throw new IllegalArgumentException(directory.resolve(other) + ": name it " + FILE);
                }
            }
            throw new IllegalArgumentException(directory + ": no " + FILE);
        }
        Map<String, Object> kustomization = Yaml.loadMap(file);
        for (String field : kustomization.keySet()) {
            if (!FIELDS.contains(field)) {
                throw unsupported(file, "the field `" + field + "`");
            }
        }
        expect(file, kustomization, "apiVersion", "kustomize.config.k8s.io/v1beta1");
        expect(file, kustomization, "kind", "Kustomization");

        visiting.push(directory);
        List<Map<String, Object>> resources = new ArrayList<>();
        for (Object entry : list(kustomization, "resources", file)) {
            if (!(entry instanceof String reference) || reference.contains("://") || reference.startsWith("github.com/")
                    || reference.startsWith("git@")) {
                throw unsupported(file, "the resource " + entry + " (only local files and directories)");
            }
            Path path = directory.resolve(reference).normalize();
            if (Files.isDirectory(path)) {
                resources.addAll(render(path, visiting));
            } else if (Files.isRegularFile(path)) {
                resources.addAll(resources(inside(directory, path, file), file));
            } else {
                throw new IllegalArgumentException(file + ": the resource " + reference + " does not exist");
            }
        }
        visiting.pop();
        Set<String> ids = new HashSet<>();
        for (Map<String, Object> resource : resources) {
            if (!ids.add(id(resource))) {
                throw new IllegalArgumentException(file + ": " + id(resource) + " appears twice");
            }
        }

        for (Object entry : list(kustomization, "patches", file)) {
            Map<String, Object> patch = Yaml.map(entry, file + " patches");
            if (!patch.keySet().equals(Set.of("path"))) {
                throw unsupported(file, "a patch with " + patch.keySet() + " (only `path`)");
            }
            Path path = inside(directory, directory.resolve(String.valueOf(patch.get("path"))).normalize(), file);
            for (Object document : Yaml.loadAll(path)) {
                applyPatch(Yaml.map(document, path.toString()), resources, path);
            }
        }
        for (Object entry : list(kustomization, "labels", file)) {
            Map<String, Object> labels = Yaml.map(entry, file + " labels");
            for (String field : labels.keySet()) {
                if (!field.equals("pairs") && !((field.equals("includeSelectors") || field.equals("includeTemplates"))
                        && Boolean.FALSE.equals(labels.get(field)))) {
                    throw unsupported(file, "labels with `" + field + ": " + labels.get(field) + "`");
                }
            }
            Map<String, Object> pairs = Yaml.map(labels.get("pairs"), file + " labels pairs");
            for (Map<String, Object> resource : resources) {
                Map<String, Object> metadata = Yaml.map(resource.get("metadata"), id(resource));
                Map<String, Object> existing = metadata.get("labels") == null
                        ? new LinkedHashMap<>() : Yaml.map(metadata.get("labels"), id(resource) + " labels");
                pairs.forEach((k, v) -> existing.put(k, String.valueOf(v)));
                metadata.put("labels", existing);
            }
        }
        for (Object entry : list(kustomization, "replicas", file)) {
            Map<String, Object> replicas = Yaml.map(entry, file + " replicas");
            if (!replicas.keySet().equals(Set.of("name", "count")) || !(replicas.get("count") instanceof Integer)) {
                throw unsupported(file, "replicas " + replicas + " (only name and an integer count)");
            }
            List<Map<String, Object>> targets = resources.stream()
                    .filter(r -> SCALABLE.contains(r.get("kind")) && replicas.get("name").equals(name(r))).toList();
            if (targets.isEmpty()) {
                throw new IllegalArgumentException(file + ": replicas for " + replicas.get("name") + " match nothing");
            }
            for (Map<String, Object> target : targets) {
                Yaml.map(target.get("spec"), id(target)).put("replicas", replicas.get("count"));
            }
        }
        for (Object entry : list(kustomization, "images", file)) {
            Map<String, Object> image = Yaml.map(entry, file + " images");
            if (!image.containsKey("name") || !Set.of("name", "newName", "newTag").containsAll(image.keySet())) {
                throw unsupported(file, "images " + image + " (only name, newName, newTag)");
            }
            for (Map<String, Object> resource : resources) {
                setImages(resource, image);
            }
        }
        return resources;
    }

    private static List<Map<String, Object>> resources(Path path, Path kustomization) {
        List<Map<String, Object>> resources = new ArrayList<>();
        for (Object document : Yaml.loadAll(path)) {
            Map<String, Object> resource = Yaml.map(document, path.toString());
            if (!(resource.get("apiVersion") instanceof String) || !(resource.get("kind") instanceof String)
                    || !(resource.get("metadata") instanceof Map<?, ?> metadata)
                    || !(metadata.get("name") instanceof String)) {
                throw new IllegalArgumentException(path + ": a resource needs apiVersion, kind and metadata.name");
            }
            if (String.valueOf(resource.get("kind")).endsWith("List")) {
                throw unsupported(kustomization, "the List resource in " + path);
            }
            resources.add(resource);
        }
        return resources;
    }

    private static void applyPatch(Map<String, Object> patch, List<Map<String, Object>> resources, Path file) {
        if (!(patch.get("metadata") instanceof Map<?, ?> metadata) || metadata.get("name") == null) {
            throw new IllegalArgumentException(file + ": a patch names its target by apiVersion, kind, metadata.name");
        }
        if (!PATCHABLE.contains(patch.get("kind"))) {
            throw unsupported(file, "a strategic merge patch of kind " + patch.get("kind") + " (only " + PATCHABLE + ")");
        }
        List<Map<String, Object>> targets = resources.stream().filter(r -> id(r).equals(id(patch))).toList();
        if (targets.size() != 1) {
            throw new IllegalArgumentException(file + ": the patch of " + id(patch) + " matches no resource");
        }
        refuseDirectives(patch, file + " " + id(patch));
        mergeMap(targets.get(0), patch, file + " " + id(patch));
    }

    private static void refuseDirectives(Object patch, String where) {
        if (patch instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (String.valueOf(k).startsWith("$")) {
                    throw unsupported(where, "the directive " + k);
                }
                if (v == null) {
                    throw unsupported(where, "deleting " + k + " with null");
                }
                refuseDirectives(v, where + "." + k);
            });
        } else if (patch instanceof List<?> list) {
            list.forEach(v -> refuseDirectives(v, where + "[]"));
        }
    }

    private static void mergeMap(Map<String, Object> original, Map<String, Object> patch, String where) {
        for (Map.Entry<String, Object> entry : patch.entrySet()) {
            String key = entry.getKey();
            Object value = entry.getValue();
            String at = where + "." + key;
            Object existing = original.get(key);
            if (existing instanceof Map && value instanceof Map) {
                if (key.equals("strategy")) {
                    throw unsupported(at, "merging into a strategy (retainKeys)");
                }
                mergeMap(Yaml.map(existing, at), Yaml.map(value, at), at);
            } else if (existing instanceof List<?> list && value instanceof List<?> patchList) {
                original.put(key, mergeList(key, Yaml.list(list, at), Yaml.list(patchList, at), at));
            } else {
                original.put(key, Yaml.copy(value));
            }
        }
    }

    private static List<Object> mergeList(String field, List<Object> original, List<Object> patch, String where) {
        String key = mergeKey(field, patch);
        if (key == null) {
            return Yaml.copy(patch);
        }
        List<Object> merged = new ArrayList<>();
        Set<Object> patched = new HashSet<>();
        for (Object element : patch) {
            Map<String, Object> patchElement = Yaml.map(element, where);
            Object id = patchElement.get(key);
            if (id == null) {
                throw new IllegalArgumentException(where + ": a patch element without its merge key " + key);
            }
            patched.add(id);
            Map<String, Object> existing = original.stream().map(e -> Yaml.map(e, where))
                    .filter(e -> id.equals(e.get(key))).findFirst().orElse(null);
            if (existing == null) {
                merged.add(Yaml.copy(patchElement));
            } else {
                if (field.equals("volumes")) {
                    throw unsupported(where, "merging into the volume " + id + " (retainKeys)");
                }
                Map<String, Object> copy = Yaml.copy(existing);
                mergeMap(copy, patchElement, where + "[" + key + "=" + id + "]");
                merged.add(copy);
            }
        }
        for (Object element : original) {
            if (!patched.contains(Yaml.map(element, where).get(key))) {
                merged.add(element);
            }
        }
        return merged;
    }

    /** The patch merge key the Kubernetes API declares for a list field of the patchable kinds; null: replaced. */
    private static String mergeKey(String field, List<Object> patch) {
        return switch (field) {
            case "containers", "initContainers", "ephemeralContainers", "env", "volumes", "imagePullSecrets" -> "name";
            case "volumeMounts" -> "mountPath";
            case "topologySpreadConstraints" -> "topologyKey";
            case "ports" -> patch.stream().anyMatch(p -> p instanceof Map<?, ?> m && m.containsKey("containerPort"))
                    ? "containerPort" : "port";
            default -> null;
        };
    }

    private static final Pattern IMAGE = Pattern.compile("([^@]*?)(:[a-zA-Z0-9_.{}-]*)?(@sha256:[0-9a-f]+)?");

    private static void setImages(Map<String, Object> resource, Map<String, Object> image) {
        Object spec = resource.get("spec");
        List<Object> podSpecs = new ArrayList<>();
        if (spec instanceof Map<?, ?> s) {
            podSpecs.add(s);
            if (s.get("template") instanceof Map<?, ?> template) {
                podSpecs.add(template.get("spec"));
            }
        }
        for (Object podSpec : podSpecs) {
            if (!(podSpec instanceof Map<?, ?> pod)) {
                continue;
            }
            for (String field : List.of("containers", "initContainers")) {
                if (!(pod.get(field) instanceof List<?> containers)) {
                    continue;
                }
                for (Object c : containers) {
                    Map<String, Object> container = Yaml.map(c, id(resource));
                    Matcher m = IMAGE.matcher(String.valueOf(container.get("image")));
                    if (m.matches() && m.group(1).equals(image.get("name"))) {
                        String name = String.valueOf(image.getOrDefault("newName", m.group(1)));
                        String tag = image.containsKey("newTag") ? ":" + image.get("newTag")
                                : Objects.toString(m.group(2), "") + Objects.toString(m.group(3), "");
                        container.put("image", name + tag);
                    }
                }
            }
        }
    }

    private static Path inside(Path directory, Path path, Path kustomization) {
        if (!path.startsWith(directory)) {
            throw new IllegalArgumentException(kustomization + ": " + path + " is outside the kustomization's directory"
                    + " (kustomize refuses it: make it a resource directory with its own kustomization)");
        }
        return path;
    }

    private static List<Object> list(Map<String, Object> kustomization, String field, Path file) {
        Object value = kustomization.get(field);
        return value == null ? List.of() : Yaml.list(value, file + " " + field);
    }

    private static void expect(Path file, Map<String, Object> kustomization, String field, String value) {
        if (kustomization.containsKey(field) && !value.equals(kustomization.get(field))) {
            throw unsupported(file, field + ": " + kustomization.get(field) + " (only " + value + ")");
        }
    }

    private static String name(Map<String, Object> resource) {
        return String.valueOf(Yaml.map(resource.get("metadata"), "metadata").get("name"));
    }

    private static IllegalArgumentException unsupported(Object where, String what) {
        return new IllegalArgumentException(where + ": " + what + " is not supported by the kustomize renderer of the"
                + " build (deploy/k8s/src/test/java/.../Kustomization.java): use what it supports, or extend it and"
                + " KubectlCrossCheckTest's coverage");
    }
}
