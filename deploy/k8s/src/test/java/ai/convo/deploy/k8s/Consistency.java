package ai.convo.deploy.k8s;

import static ai.convo.deploy.k8s.Manifests.containers;
import static ai.convo.deploy.k8s.Manifests.describe;
import static ai.convo.deploy.k8s.Manifests.find;
import static ai.convo.deploy.k8s.Manifests.get;
import static ai.convo.deploy.k8s.Manifests.getMap;
import static ai.convo.deploy.k8s.Manifests.imageName;
import static ai.convo.deploy.k8s.Manifests.maps;
import static ai.convo.deploy.k8s.Manifests.name;
import static ai.convo.deploy.k8s.Manifests.ofKind;
import static ai.convo.deploy.k8s.Manifests.templateLabels;
import static ai.convo.deploy.k8s.Manifests.workloads;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that the rendered pieces fit together, beyond what the API schema says: the mistakes that render and apply
 * fine and then fail at run time (a Service selecting nothing, a probe on a port the container lacks, a Secret
 * nobody creates, an autoscaler beyond the event processors' segments, the management port behind a Service).
 */
final class Consistency {

    /** A program of the system: its image and its ports (the programs' defaults, which the manifests keep). */
    record App(String name, String image, int apiPort, int managementPort) {
    }

    static final List<App> APPS = List.of(
            new App("gateway", "convo/gateway", 8080, 9080),
            new App("command-service", "convo/command-service", 8081, 9081),
            new App("query-service", "convo/query-service", 8082, 9082));

    enum Replicas { ANY, ONE, SEVERAL }

    /**
     * What a rendered tree may rely on. {@code externalSecrets}: Secrets referenced but created outside the
     * manifests (documented in deploy/k8s/README.md); besides these, each rendered CloudNativePG Cluster provides
     * the Secret {@code <cluster>-app} and the Services {@code <cluster>-rw}, {@code -ro}, {@code -r}.
     * {@code complete}: deployable as is, so the database it names must be part of it.
     */
    record Profile(String tree, Set<String> externalSecrets, boolean complete, Replicas replicas) {
    }

    static final Map<String, Profile> PROFILES = Map.of(
            "base", new Profile("base", Set.of("convo-database", "convo-bootstrap"), false, Replicas.ANY),
            "overlays/local", new Profile("overlays/local", Set.of(), true, Replicas.ONE),
            "overlays/production", new Profile("overlays/production", Set.of("convo-bootstrap"), true,
                    Replicas.SEVERAL));

    /**
     * An environment variable as a container gets it: {@code value} from a literal or a rendered ConfigMap,
     * or {@code secret}/{@code secretKey} from a Secret; neither: unknown here, or unset ({@code optional} and absent).
     */
    record Env(String name, String value, String secret, String secretKey, boolean optional) {
        boolean unset() {
            return value == null && secret == null && optional;
        }
    }

    private final List<Map<String, Object>> resources;
    private final Profile profile;
    private final List<String> problems = new ArrayList<>();

    private Consistency(List<Map<String, Object>> resources, Profile profile) {
        this.resources = resources;
        this.profile = profile;
    }

    static List<String> check(List<Map<String, Object>> resources, Profile profile) {
        Consistency check = new Consistency(resources, profile);
        check.selectors();
        check.services();
        check.probesAndPorts();
        check.references();
        check.unusedConfig();
        check.autoscalers();
        check.disruptionBudgets();
        check.segments();
        check.containerSettings();
        check.gatewayUpstreams();
        if (profile.complete()) {
            check.database();
        }
        check.replicaCounts();
        return check.problems;
    }

    // ---- the environment a container gets

    static Map<String, Env> env(List<Map<String, Object>> resources, Map<String, Object> container) {
        Map<String, Env> env = new LinkedHashMap<>();
        for (Map<String, Object> from : maps(container.get("envFrom"))) {
            String prefix = Objects.toString(from.get("prefix"), "");
            Map<String, Object> configMap = getMap(from, "configMapRef");
            find(resources, "ConfigMap", String.valueOf(configMap.get("name"))).ifPresent(cm ->
                    getMap(cm, "data").forEach((k, v) -> env.put(prefix + k,
                            new Env(prefix + k, String.valueOf(v), null, null, false))));
            Map<String, Object> secret = getMap(from, "secretRef");
            find(resources, "Secret", String.valueOf(secret.get("name"))).ifPresent(s ->
                    secretKeys(s).forEach(k -> env.put(prefix + k,
                            new Env(prefix + k, null, name(s), k, false))));
        }
        for (Map<String, Object> e : maps(container.get("env"))) {
            String name = String.valueOf(e.get("name"));
            Map<String, Object> configMapRef = getMap(e, "valueFrom", "configMapKeyRef");
            Map<String, Object> secretRef = getMap(e, "valueFrom", "secretKeyRef");
            if (e.containsKey("value")) {
                env.put(name, new Env(name, String.valueOf(e.get("value")), null, null, false));
            } else if (!configMapRef.isEmpty()) {
                boolean optional = Boolean.TRUE.equals(configMapRef.get("optional"));
                Object value = find(resources, "ConfigMap", String.valueOf(configMapRef.get("name")))
                        .map(cm -> getMap(cm, "data").get(String.valueOf(configMapRef.get("key")))).orElse(null);
                env.put(name, new Env(name, value == null ? null : String.valueOf(value), null, null, optional));
            } else if (!secretRef.isEmpty()) {
                env.put(name, new Env(name, null, String.valueOf(secretRef.get("name")),
                        String.valueOf(secretRef.get("key")), Boolean.TRUE.equals(secretRef.get("optional"))));
            } else {
                env.put(name, new Env(name, null, null, null, false));
            }
        }
        return env;
    }

    // ---- selectors and Services

    private void selectors() {
        for (Map<String, Object> workload : workloads(resources)) {
            Map<String, Object> selector = getMap(workload, "spec", "selector");
            if (selector.containsKey("matchExpressions")) {
                problems.add(describe(workload) + ": selector.matchExpressions is not checked here: use matchLabels");
            }
            Map<String, Object> matchLabels = getMap(selector, "matchLabels");
            if (matchLabels.isEmpty() || !selects(matchLabels, workload)) {
                problems.add(describe(workload) + ": selector.matchLabels " + matchLabels
                        + " does not select its own pod template's labels " + templateLabels(workload));
            }
        }
    }

    private static boolean selects(Map<String, Object> selector, Map<String, Object> workload) {
        Map<String, Object> labels = templateLabels(workload);
        return selector.entrySet().stream().allMatch(e -> Objects.equals(labels.get(e.getKey()), e.getValue()));
    }

    private List<Map<String, Object>> selected(Map<String, Object> selector) {
        if (selector.isEmpty()) {
            return List.of();
        }
        return workloads(resources).stream().filter(w -> selects(selector, w)).toList();
    }

    private void services() {
        for (Map<String, Object> service : ofKind(resources, "Service")) {
            Map<String, Object> selector = getMap(service, "spec", "selector");
            List<Map<String, Object>> pods = selected(selector);
            if (pods.isEmpty()) {
                problems.add(describe(service) + ": its selector " + selector + " selects no pod template");
            }
            for (Map<String, Object> port : maps(get(service, "spec", "ports"))) {
                Object target = port.containsKey("targetPort") ? port.get("targetPort") : port.get("port");
                for (Map<String, Object> workload : pods) {
                    Map<String, Object> containerPort = containerPort(workload, target);
                    if (containerPort == null) {
                        problems.add(describe(service) + ": targetPort " + target + " is not a container port of "
                                + describe(workload));
                    } else if (isManagement(workload, containerPort)) {
                        problems.add(describe(service) + ": exposes the management port " + target + " of "
                                + describe(workload) + " (probes and metrics are reached on the pods only)");
                    }
                }
            }
        }
    }

    /** The container port (of any container of the workload) a Service's or probe's port refers to, or null. */
    private static Map<String, Object> containerPort(Map<String, Object> workload, Object port) {
        for (Map<String, Object> template : Manifests.podTemplates(workload)) {
            for (Map<String, Object> container : containers(template)) {
                Map<String, Object> found = containerPortOf(container, port);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static Map<String, Object> containerPortOf(Map<String, Object> container, Object port) {
        for (Map<String, Object> p : maps(container.get("ports"))) {
            if (port instanceof Integer ? port.equals(p.get("containerPort")) : port.equals(p.get("name"))) {
                return p;
            }
        }
        return null;
    }

    private static boolean isManagement(Map<String, Object> workload, Map<String, Object> containerPort) {
        return "management".equals(containerPort.get("name")) || app(workload).map(a ->
                Objects.equals(a.managementPort(), containerPort.get("containerPort"))).orElse(false);
    }

    static Optional<App> app(Map<String, Object> workload) {
        for (Map<String, Object> template : Manifests.podTemplates(workload)) {
            for (Map<String, Object> container : containers(template)) {
                Optional<App> app = appOfContainer(container);
                if (app.isPresent()) {
                    return app;
                }
            }
        }
        return Optional.empty();
    }

    static Optional<App> appOfContainer(Map<String, Object> container) {
        String image = imageName(container.get("image"));
        return APPS.stream().filter(a -> a.image().equals(image)).findFirst();
    }

    private List<Map<String, Object>> appWorkloads() {
        return workloads(resources).stream().filter(w -> app(w).isPresent()).toList();
    }

    // ---- probes and the programs' ports

    private void probesAndPorts() {
        for (Map<String, Object> workload : workloads(resources)) {
            for (Map<String, Object> template : Manifests.podTemplates(workload)) {
                for (Map<String, Object> container : containers(template)) {
                    String where = describe(workload) + " container " + container.get("name");
                    Optional<App> app = appOfContainer(container);
                    for (String probeName : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
                        probe(where, container, app, probeName);
                    }
                    app.ifPresent(a -> appPorts(where, container, template, a));
                }
            }
        }
    }

    private void probe(String where, Map<String, Object> container, Optional<App> app, String probeName) {
        Map<String, Object> probe = getMap(container, probeName);
        if (probe.isEmpty()) {
            if (app.isPresent()) {
                problems.add(where + ": no " + probeName);
            }
            return;
        }
        Object port = get(probe, "httpGet", "port");
        for (String handler : List.of("tcpSocket", "grpc")) {
            port = port != null ? port : get(probe, handler, "port");
        }
        Integer number = null;
        if (port != null) {
            Map<String, Object> containerPort = containerPortOf(container, port);
            if (containerPort != null) {
                number = (Integer) containerPort.get("containerPort");
            } else if (port instanceof Integer n && app.isPresent() && n == app.get().managementPort()) {
                number = n;
            } else {
                problems.add(where + ": the " + probeName + "'s port " + port + " is not a port of the container");
            }
        }
        if (app.isEmpty()) {
            return;
        }
        if (number != null && number != app.get().managementPort()) {
            problems.add(where + ": the " + probeName + " asks port " + port + ", not the management port "
                    + app.get().managementPort() + " (the API port has no actuator)");
        }
        String path = probeName.equals("readinessProbe") ? "/actuator/health/readiness" : "/actuator/health/liveness";
        if (!path.equals(get(probe, "httpGet", "path"))) {
            problems.add(where + ": the " + probeName + " should ask " + path + ", asks "
                    + get(probe, "httpGet", "path"));
        }
        if (probeName.equals("startupProbe")) {
            int seconds = integer(probe.get("failureThreshold"), 3) * integer(probe.get("periodSeconds"), 10);
            if (seconds < 120) {
                problems.add(where + ": the startupProbe gives the start only " + seconds + " s (migrations and a"
                        + " cold JVM need more; at least 120 s)");
            }
        }
    }

    private void appPorts(String where, Map<String, Object> container, Map<String, Object> template, App app) {
        Map<String, Object> http = containerPortOf(container, "http");
        Map<String, Object> management = containerPortOf(container, "management");
        if (http == null || !Integer.valueOf(app.apiPort()).equals(http.get("containerPort"))) {
            problems.add(where + ": needs the port `http` " + app.apiPort() + " (SERVER_PORT's default)");
        }
        if (management == null || !Integer.valueOf(app.managementPort()).equals(management.get("containerPort"))) {
            problems.add(where + ": needs the port `management` " + app.managementPort()
                    + " (MANAGEMENT_PORT's default)");
        }
        Map<String, Object> annotations = getMap(template, "metadata", "annotations");
        Map<String, Object> expected = Map.of("prometheus.io/scrape", "true",
                "prometheus.io/port", String.valueOf(app.managementPort()), "prometheus.io/path", "/actuator/prometheus");
        expected.forEach((k, v) -> {
            if (!v.equals(annotations.get(k))) {
                problems.add(where + ": the pod annotation " + k + " should be " + v + ", is " + annotations.get(k));
            }
        });
    }

    // ---- Secrets and ConfigMaps

    private Set<String> providedSecrets() {
        Set<String> secrets = new HashSet<>(profile.externalSecrets());
        ofKind(resources, "Secret").forEach(s -> secrets.add(name(s)));
        cnpgClusters().forEach(c -> secrets.add(c + "-app"));
        return secrets;
    }

    private List<String> cnpgClusters() {
        return resources.stream().filter(r -> (r.get("apiVersion") + "/" + r.get("kind")).equals(ApiSchema.CNPG_CLUSTER))
                .map(Manifests::name).toList();
    }

    private static Set<String> secretKeys(Map<String, Object> secret) {
        Set<String> keys = new HashSet<>(getMap(secret, "data").keySet());
        keys.addAll(getMap(secret, "stringData").keySet());
        return keys;
    }

    private void references() {
        Set<String> secrets = providedSecrets();
        for (Map<String, Object> workload : workloads(resources)) {
            for (Map<String, Object> template : Manifests.podTemplates(workload)) {
                for (Map<String, Object> container : containers(template)) {
                    String where = describe(workload) + " container " + container.get("name");
                    for (Map<String, Object> e : maps(container.get("env"))) {
                        if (e.containsKey("value") && e.containsKey("valueFrom")) {
                            problems.add(where + ": " + e.get("name") + " has both value and valueFrom");
                        }
                        reference(where, "Secret", getMap(e, "valueFrom", "secretKeyRef"), "name", "key", secrets);
                        reference(where, "ConfigMap", getMap(e, "valueFrom", "configMapKeyRef"), "name", "key", null);
                    }
                    for (Map<String, Object> from : maps(container.get("envFrom"))) {
                        reference(where, "Secret", getMap(from, "secretRef"), "name", null, secrets);
                        reference(where, "ConfigMap", getMap(from, "configMapRef"), "name", null, null);
                    }
                }
                for (Map<String, Object> volume : maps(get(template, "spec", "volumes"))) {
                    String where = describe(workload) + " volume " + volume.get("name");
                    reference(where, "Secret", getMap(volume, "secret"), "secretName", null, secrets);
                    reference(where, "ConfigMap", getMap(volume, "configMap"), "name", null, null);
                    for (Map<String, Object> source : maps(get(volume, "projected", "sources"))) {
                        reference(where, "Secret", getMap(source, "secret"), "name", null, secrets);
                        reference(where, "ConfigMap", getMap(source, "configMap"), "name", null, null);
                    }
                }
            }
        }
    }

    private void reference(String where, String kind, Map<String, Object> ref, String nameField, String keyField,
                           Set<String> external) {
        if (ref.isEmpty()) {
            return;
        }
        String name = String.valueOf(ref.get(nameField));
        boolean optional = Boolean.TRUE.equals(ref.get("optional"));
        Optional<Map<String, Object>> rendered = find(resources, kind, name);
        if (rendered.isPresent()) {
            Set<String> keys = kind.equals("Secret") ? secretKeys(rendered.get())
                    : new HashSet<>(getMap(rendered.get(), "data").keySet());
            if (keyField != null && !keys.contains(String.valueOf(ref.get(keyField))) && !optional) {
                problems.add(where + ": the " + kind + " " + name + " has no key " + ref.get(keyField));
            }
        } else if ((external == null || !external.contains(name)) && !optional) {
            problems.add(where + ": the " + kind + " " + name + " is neither rendered nor provided outside the"
                    + " manifests (" + (external == null ? "none" : external) + ")");
        }
    }

    /** A ConfigMap key nobody reads is a typo (an optional reference then silently finds nothing). */
    private void unusedConfig() {
        Set<String> used = new HashSet<>();
        Set<String> wholeMaps = new HashSet<>();
        for (Map<String, Object> workload : workloads(resources)) {
            for (Map<String, Object> template : Manifests.podTemplates(workload)) {
                for (Map<String, Object> container : containers(template)) {
                    for (Map<String, Object> e : maps(container.get("env"))) {
                        Map<String, Object> ref = getMap(e, "valueFrom", "configMapKeyRef");
                        used.add(ref.get("name") + "/" + ref.get("key"));
                    }
                    maps(container.get("envFrom")).forEach(f -> wholeMaps.add(String.valueOf(
                            get(f, "configMapRef", "name"))));
                }
                maps(get(template, "spec", "volumes")).forEach(v -> wholeMaps.add(String.valueOf(
                        get(v, "configMap", "name"))));
            }
        }
        for (Map<String, Object> configMap : ofKind(resources, "ConfigMap")) {
            if (wholeMaps.contains(name(configMap))) {
                continue;
            }
            for (String key : getMap(configMap, "data").keySet()) {
                if (!used.contains(name(configMap) + "/" + key)) {
                    problems.add(describe(configMap) + ": no container reads the key " + key);
                }
            }
        }
    }

    // ---- scaling

    private Optional<Map<String, Object>> autoscalerOf(Map<String, Object> workload) {
        return ofKind(resources, "HorizontalPodAutoscaler").stream()
                .filter(h -> Objects.equals(get(h, "spec", "scaleTargetRef", "kind"), workload.get("kind"))
                        && Objects.equals(get(h, "spec", "scaleTargetRef", "name"), name(workload)))
                .findFirst();
    }

    /** The fewest and most replicas a workload runs: its autoscaler's bounds, or its replicas. */
    private int[] replicas(Map<String, Object> workload) {
        Optional<Map<String, Object>> hpa = autoscalerOf(workload);
        if (hpa.isPresent()) {
            return new int[] {integer(get(hpa.get(), "spec", "minReplicas"), 1),
                    integer(get(hpa.get(), "spec", "maxReplicas"), 1)};
        }
        int replicas = integer(get(workload, "spec", "replicas"), 1);
        return new int[] {replicas, replicas};
    }

    private void autoscalers() {
        Set<String> targets = new HashSet<>();
        for (Map<String, Object> hpa : ofKind(resources, "HorizontalPodAutoscaler")) {
            Map<String, Object> ref = getMap(hpa, "spec", "scaleTargetRef");
            Optional<Map<String, Object>> target = find(resources, "Deployment", String.valueOf(ref.get("name")));
            if (!"apps/v1".equals(ref.get("apiVersion")) || !"Deployment".equals(ref.get("kind"))
                    || target.isEmpty()) {
                problems.add(describe(hpa) + ": scaleTargetRef " + ref + " is not a rendered Deployment (apps/v1)");
                continue;
            }
            if (!targets.add(String.valueOf(ref.get("name")))) {
                problems.add(describe(hpa) + ": a second autoscaler for Deployment " + ref.get("name"));
            }
            int min = integer(get(hpa, "spec", "minReplicas"), 1);
            int max = integer(get(hpa, "spec", "maxReplicas"), 0);
            if (min < 1 || min > max) {
                problems.add(describe(hpa) + ": minReplicas " + min + " and maxReplicas " + max + " do not make a range");
            }
            if (get(target.get(), "spec", "replicas") != null) {
                problems.add(describe(target.get()) + ": sets replicas although " + describe(hpa)
                        + " owns the count (every apply would reset it)");
            }
            for (Map<String, Object> metric : maps(get(hpa, "spec", "metrics"))) {
                Object resource = get(metric, "resource", "name");
                if ("Resource".equals(metric.get("type")) && "Utilization".equals(get(metric, "resource", "target", "type"))) {
                    for (Map<String, Object> container : containers(getMap(target.get(), "spec", "template"))) {
                        if (get(container, "resources", "requests", String.valueOf(resource)) == null) {
                            problems.add(describe(hpa) + ": scales on " + resource + " utilisation but container "
                                    + container.get("name") + " requests no " + resource);
                        }
                    }
                }
            }
        }
    }

    private void disruptionBudgets() {
        Set<String> covered = new HashSet<>();
        for (Map<String, Object> pdb : ofKind(resources, "PodDisruptionBudget")) {
            Map<String, Object> selector = getMap(pdb, "spec", "selector", "matchLabels");
            List<Map<String, Object>> pods = selected(selector);
            if (pods.isEmpty()) {
                problems.add(describe(pdb) + ": its selector " + selector + " selects no rendered Deployment or"
                        + " StatefulSet");
            }
            Map<String, Object> spec = getMap(pdb, "spec");
            if (spec.containsKey("minAvailable") == spec.containsKey("maxUnavailable")) {
                problems.add(describe(pdb) + ": set exactly one of minAvailable and maxUnavailable");
            }
            for (Map<String, Object> workload : pods) {
                covered.add(describe(workload));
                if (spec.get("minAvailable") instanceof Integer min && min >= replicas(workload)[0]) {
                    problems.add(describe(pdb) + ": minAvailable " + min + " with " + replicas(workload)[0]
                            + " replica(s) of " + describe(workload) + " blocks every node drain");
                }
            }
        }
        for (Map<String, Object> workload : appWorkloads()) {
            if (!covered.contains(describe(workload))) {
                problems.add(describe(workload) + ": no PodDisruptionBudget selects it");
            }
        }
    }

    /** Query replicas beyond APP_EVENTS_SEGMENTS get no segment of any processor. */
    private void segments() {
        for (Map<String, Object> workload : appWorkloads()) {
            if (!app(workload).get().name().equals("query-service")) {
                continue;
            }
            for (Map<String, Object> container : containers(getMap(workload, "spec", "template"))) {
                if (appOfContainer(container).isEmpty()) {
                    continue;
                }
                Env env = env(resources, container).get("APP_EVENTS_SEGMENTS");
                int segments;
                try {
                    segments = env == null || env.unset() ? 2 : Integer.parseInt(String.valueOf(env.value()));
                } catch (NumberFormatException e) {
                    problems.add(describe(workload) + ": APP_EVENTS_SEGMENTS is not a number: " + env.value());
                    continue;
                }
                int max = replicas(workload)[1];
                if (max > segments) {
                    problems.add(describe(workload) + ": up to " + max + " replicas but APP_EVENTS_SEGMENTS is "
                            + segments + " (replicas beyond the segments get nothing to process)");
                }
            }
        }
    }

    // ---- the programs' containers

    private void containerSettings() {
        for (Map<String, Object> workload : workloads(resources)) {
            Map<String, Object> template = getMap(workload, "spec", "template");
            for (Map<String, Object> container : containers(template)) {
                String where = describe(workload) + " container " + container.get("name");
                String image = String.valueOf(container.get("image"));
                String tag = image.contains("@") ? "digest"
                        : image.substring(imageName(image).length()).replaceFirst("^:", "");
                if (tag.isEmpty() || tag.equals("latest")) {
                    problems.add(where + ": the image " + image + " has no version tag");
                }
                if (appOfContainer(container).isPresent()) {
                    appContainer(where, container, getMap(template, "spec"));
                }
            }
        }
    }

    private void appContainer(String where, Map<String, Object> container, Map<String, Object> pod) {
        Map<String, Object> resources = getMap(container, "resources");
        for (String resource : List.of("cpu", "memory")) {
            if (get(resources, "requests", resource) == null) {
                problems.add(where + ": no " + resource + " request");
            }
        }
        Object memory = get(resources, "limits", "memory");
        if (memory == null || !memory.equals(get(resources, "requests", "memory"))) {
            problems.add(where + ": the memory limit (" + memory + ") should equal the request ("
                    + get(resources, "requests", "memory") + "): the heap is 75% of the limit");
        }
        Map<String, Object> podSecurity = getMap(pod, "securityContext");
        Map<String, Object> security = getMap(container, "securityContext");
        expect(where + " pod securityContext", podSecurity, "runAsNonRoot", true);
        expect(where + " pod securityContext", podSecurity, "runAsUser", 10001);
        expect(where + " pod securityContext", getMap(podSecurity, "seccompProfile"), "type", "RuntimeDefault");
        expect(where + " securityContext", security, "allowPrivilegeEscalation", false);
        expect(where + " securityContext", security, "readOnlyRootFilesystem", true);
        if (!(get(security, "capabilities", "drop") instanceof List<?> drop && drop.contains("ALL"))) {
            problems.add(where + ": securityContext.capabilities.drop should be [ALL]");
        }
        boolean tmp = maps(container.get("volumeMounts")).stream().anyMatch(m -> "/tmp".equals(m.get("mountPath"))
                && maps(pod.get("volumes")).stream().anyMatch(v -> Objects.equals(v.get("name"), m.get("name"))
                        && v.containsKey("emptyDir")));
        if (!tmp) {
            problems.add(where + ": needs an emptyDir at /tmp (the root filesystem is read-only)");
        }
        if (!(pod.get("terminationGracePeriodSeconds") instanceof Integer)) {
            problems.add(where + ": set terminationGracePeriodSeconds");
        }
        expect(where + " pod", pod, "enableServiceLinks", false);
    }

    private void expect(String where, Map<String, Object> map, String field, Object value) {
        if (!value.equals(map.get(field))) {
            problems.add(where + ": " + field + " should be " + value + ", is " + map.get(field));
        }
    }

    // ---- where the programs connect to

    private void gatewayUpstreams() {
        for (Map<String, Object> workload : appWorkloads()) {
            for (Map<String, Object> container : containers(getMap(workload, "spec", "template"))) {
                if (!appOfContainer(container).map(a -> a.name().equals("gateway")).orElse(false)) {
                    continue;
                }
                Map<String, Env> env = env(resources, container);
                upstream(workload, env.get("COMMAND_SERVICE_URI"), "command-service");
                upstream(workload, env.get("QUERY_SERVICE_URI"), "query-service");
            }
        }
    }

    private void upstream(Map<String, Object> gateway, Env env, String appName) {
        String where = describe(gateway) + " " + (env == null ? "the URI of " + appName : env.name());
        if (env == null || env.value() == null) {
            problems.add(where + ": not set");
            return;
        }
        for (String uri : env.value().split(",")) {
            URI parsed = URI.create(uri.trim());
            Optional<Map<String, Object>> service = find(resources, "Service", String.valueOf(parsed.getHost()));
            if (!"http".equals(parsed.getScheme()) || service.isEmpty()) {
                problems.add(where + ": " + uri + " is not http://<a rendered Service>:<port>");
                continue;
            }
            Optional<Map<String, Object>> port = maps(get(service.get(), "spec", "ports")).stream()
                    .filter(p -> Objects.equals(p.get("port"), parsed.getPort())).findFirst();
            List<Map<String, Object>> pods = selected(getMap(service.get(), "spec", "selector"));
            Optional<Map<String, Object>> workload = pods.stream()
                    .filter(w -> app(w).map(a -> a.name().equals(appName)).orElse(false)).findFirst();
            if (port.isEmpty() || workload.isEmpty()) {
                problems.add(where + ": " + uri + " does not reach " + appName + " (no such port on " + describe(
                        service.get()) + ", or it selects other pods)");
                continue;
            }
            Object target = port.get().containsKey("targetPort") ? port.get().get("targetPort") : port.get().get("port");
            Map<String, Object> containerPort = containerPort(workload.get(), target);
            if (containerPort == null || !Objects.equals(containerPort.get("containerPort"),
                    app(workload.get()).get().apiPort())) {
                problems.add(where + ": " + uri + " does not reach " + appName + "'s API port");
            }
        }
    }

    /** Complete trees: DB_HOST and DB_READ_HOST name a rendered database, and its credentials fit. */
    private void database() {
        List<String> clusters = cnpgClusters();
        for (Map<String, Object> workload : appWorkloads()) {
            for (Map<String, Object> container : containers(getMap(workload, "spec", "template"))) {
                Map<String, Env> env = env(resources, container);
                Env host = env.get("DB_HOST");
                if (host == null) {
                    continue;
                }
                String where = describe(workload);
                String port = Optional.ofNullable(env.get("DB_PORT")).map(Env::value).orElse("5432");
                String cluster = clusters.stream().filter(c -> (c + "-rw").equals(host.value())).findFirst()
                        .orElse(null);
                if (cluster != null) {
                    Map<String, Object> c = find(resources, "Cluster", cluster).get();
                    Object database = get(c, "spec", "bootstrap", "initdb", "database");
                    if (env.get("DB_NAME") == null || !Objects.equals(env.get("DB_NAME").value(), database)) {
                        problems.add(where + ": DB_NAME is not the database " + database + " of the Cluster " + cluster);
                    }
                    for (String[] credential : List.of(new String[] {"DB_USERNAME", "username"},
                            new String[] {"DB_PASSWORD", "password"})) {
                        Env e = env.get(credential[0]);
                        if (e == null || !(cluster + "-app").equals(e.secret()) || !credential[1].equals(e.secretKey())) {
                            problems.add(where + ": " + credential[0] + " should come from the Secret " + cluster
                                    + "-app (key " + credential[1] + ") the operator creates");
                        }
                    }
                } else if (!servesPort(host.value(), port)) {
                    problems.add(where + ": DB_HOST " + host.value() + ":" + port + " is neither a rendered Service"
                            + " with that port nor a CloudNativePG Cluster's -rw Service");
                }
                Env read = env.get("DB_READ_HOST");
                if (read != null && read.value() != null && !servesPort(read.value(), port)
                        && clusters.stream().noneMatch(c -> read.value().equals(c + "-ro") || read.value().equals(c + "-r"))) {
                    problems.add(where + ": DB_READ_HOST " + read.value() + " is neither a rendered Service nor a"
                            + " CloudNativePG Cluster's -ro or -r Service");
                }
            }
        }
    }

    private boolean servesPort(String serviceName, String port) {
        return find(resources, "Service", serviceName).map(s -> maps(get(s, "spec", "ports")).stream()
                .anyMatch(p -> String.valueOf(p.get("port")).equals(port))).orElse(false);
    }

    private void replicaCounts() {
        for (Map<String, Object> workload : appWorkloads()) {
            int[] replicas = replicas(workload);
            if (profile.replicas() == Replicas.ONE && (replicas[0] != 1 || replicas[1] != 1)) {
                problems.add(describe(workload) + ": " + replicas[0] + " to " + replicas[1] + " replicas, 1 expected");
            } else if (profile.replicas() == Replicas.SEVERAL && replicas[0] < 2) {
                problems.add(describe(workload) + ": at least 2 replicas expected, " + replicas[0] + " at the least");
            }
        }
    }

    private static int integer(Object value, int otherwise) {
        return value instanceof Integer i ? i : otherwise;
    }
}
