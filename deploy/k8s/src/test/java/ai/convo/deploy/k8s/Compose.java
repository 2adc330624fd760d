package ai.convo.deploy.k8s;

import static ai.convo.deploy.k8s.Manifests.containers;
import static ai.convo.deploy.k8s.Manifests.find;
import static ai.convo.deploy.k8s.Manifests.get;
import static ai.convo.deploy.k8s.Manifests.getMap;

import ai.convo.deploy.k8s.Consistency.App;
import ai.convo.deploy.k8s.Consistency.Env;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * deploy/compose.yaml against the rendered local overlay: the same images, the same environment variable names and,
 * for what is not a secret, the same values; what k8s takes from a Secret compose may take from the shell
 * ({@code ${VAR:-default}}); what k8s leaves unset unless configured (an optional reference) compose may leave out
 * or pass as {@code ${NAME:-}} (the programs treat empty as unset). Also: only the gateway's API port is published,
 * the programs' containers are read-only with a /tmp tmpfs and the same memory limit, and the database settings fit
 * the PostgreSQL service.
 */
final class Compose {

    private Compose() {
    }

    static List<String> check(Map<String, Object> compose, List<Map<String, Object>> local) {
        List<String> problems = new ArrayList<>();
        Map<String, Object> services = getMap(compose, "services");
        for (App app : Consistency.APPS) {
            String where = "compose.yaml service " + app.name();
            Map<String, Object> service = getMap(services, app.name());
            Optional<Map<String, Object>> container = find(local, "Deployment", app.name())
                    .flatMap(d -> containers(getMap(d, "spec", "template")).stream()
                            .filter(c -> Consistency.appOfContainer(c).isPresent()).findFirst());
            if (service.isEmpty() || container.isEmpty()) {
                problems.add(where + ": missing here or in the local overlay");
                continue;
            }
            if (!Objects.equals(service.get("image"), container.get().get("image"))) {
                problems.add(where + ": image " + service.get("image") + ", the local overlay runs "
                        + container.get().get("image"));
            }
            environment(where, environment(service), Consistency.env(local, container.get()), problems);
            ports(where, service, app, problems);
            if (!Boolean.TRUE.equals(service.get("read_only"))
                    || !(service.get("tmpfs") instanceof List<?> tmpfs && tmpfs.stream().anyMatch(
                            t -> String.valueOf(t).equals("/tmp") || String.valueOf(t).startsWith("/tmp:")))) {
                problems.add(where + ": should be read_only with a tmpfs at /tmp, as in Kubernetes");
            }
            Object limit = get(container.get(), "resources", "limits", "memory");
            String expected = String.valueOf(limit).replace("Mi", "m").replace("Gi", "g");
            if (!expected.equals(String.valueOf(service.get("mem_limit")))) {
                problems.add(where + ": mem_limit " + service.get("mem_limit") + ", the local overlay's limit is "
                        + limit + " (" + expected + ")");
            }
            if (!app.name().equals("gateway") && !"service_healthy".equals(
                    get(service, "depends_on", "postgres", "condition"))) {
                problems.add(where + ": should depend on postgres with condition service_healthy");
            }
        }
        database(services, problems);
        return problems;
    }

    private static void environment(String where, Map<String, String> compose, Map<String, Env> k8s,
                                    List<String> problems) {
        for (Env env : k8s.values()) {
            String value = compose.get(env.name());
            if (!compose.containsKey(env.name())) {
                if (!env.unset() && !(env.secret() != null && env.optional())) {
                    problems.add(where + ": " + env.name() + " is missing (the local overlay sets it)");
                }
            } else if (env.value() != null && !env.value().equals(value)) {
                problems.add(where + ": " + env.name() + " is " + value + ", the local overlay's is " + env.value());
            } else if (env.unset() && !(value == null || value.equals("${" + env.name() + ":-}"))) {
                problems.add(where + ": " + env.name() + " is " + value + ", the local overlay leaves it unset"
                        + " (use ${" + env.name() + ":-})");
            } else if (env.value() == null && env.secret() == null && !env.optional()) {
                problems.add(where + ": " + env.name() + " has no value in the local overlay to compare with");
            }
        }
        for (String name : compose.keySet()) {
            if (!k8s.containsKey(name)) {
                problems.add(where + ": " + name + " is not set in the local overlay");
            }
        }
    }

    /** The service's environment, map or list form. */
    static Map<String, String> environment(Map<String, Object> service) {
        Map<String, String> environment = new LinkedHashMap<>();
        Object value = service.get("environment");
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> environment.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
        } else if (value instanceof List<?> list) {
            for (Object entry : list) {
                String s = String.valueOf(entry);
                int equals = s.indexOf('=');
                environment.put(equals < 0 ? s : s.substring(0, equals), equals < 0 ? null : s.substring(equals + 1));
            }
        }
        return environment;
    }

    private static void ports(String where, Map<String, Object> service, App app, List<String> problems) {
        List<Integer> published = new ArrayList<>();
        for (Object port : service.get("ports") instanceof List<?> list ? list : List.of()) {
            String target = port instanceof Map<?, ?> map ? String.valueOf(map.get("target"))
                    : String.valueOf(port).replaceAll("/.*", "").replaceAll(".*:", "");
            published.add(Integer.valueOf(target));
        }
        List<Integer> expected = app.name().equals("gateway") ? List.of(app.apiPort()) : List.of();
        if (!published.equals(expected)) {
            problems.add(where + ": publishes " + published + ", expected " + expected
                    + " (the gateway's API port only; never a management port)");
        }
    }

    private static void database(Map<String, Object> services, List<String> problems) {
        Map<String, String> postgres = environment(getMap(services, "postgres"));
        if (get(services, "postgres", "healthcheck") == null) {
            problems.add("compose.yaml service postgres: needs a healthcheck (the others wait for it)");
        }
        for (String name : List.of("command-service", "query-service")) {
            Map<String, String> env = environment(getMap(services, name));
            String where = "compose.yaml service " + name;
            if (!services.containsKey(env.get("DB_HOST"))) {
                problems.add(where + ": DB_HOST " + env.get("DB_HOST") + " is not a service of compose.yaml");
            }
            for (String[] pair : List.of(new String[] {"DB_NAME", "POSTGRES_DB"},
                    new String[] {"DB_USERNAME", "POSTGRES_USER"}, new String[] {"DB_PASSWORD", "POSTGRES_PASSWORD"})) {
                if (!Objects.equals(env.get(pair[0]), postgres.get(pair[1]))) {
                    problems.add(where + ": " + pair[0] + " " + env.get(pair[0]) + " is not postgres' " + pair[1] + " "
                            + postgres.get(pair[1]));
                }
            }
        }
        Map<String, String> gateway = environment(getMap(services, "gateway"));
        for (String name : List.of("COMMAND_SERVICE_URI", "QUERY_SERVICE_URI")) {
            for (String uri : Objects.toString(gateway.get(name), "").split(",")) {
                if (!services.containsKey(URI.create(uri.trim()).getHost())) {
                    problems.add("compose.yaml service gateway: " + name + " " + uri + " is not a service here");
                }
            }
        }
    }
}
