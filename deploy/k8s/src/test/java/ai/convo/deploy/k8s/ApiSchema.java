package ai.convo.deploy.k8s;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Checks rendered resources against the Kubernetes API (1.32) offline, with the models the official Java client
 * generates from the API's OpenAPI document:
 * <ol>
 * <li>the model's own {@code validateJsonElement}: unknown fields, missing required fields, objects and lists where
 * the schema has them, recursively (it stops at the first problem);</li>
 * <li>JSON types, which that validation does not check for numbers, booleans and maps: a walk over the model's
 * fields requires a string where the API has a string (a YAML {@code 5432} for an env value or a label is refused,
 * as the API server refuses it), an integer where it has an integer ({@code containerPort: "x"}), a boolean, an
 * int-or-string, a quantity in Kubernetes' syntax ({@code 768MB} is not one), base64 in a Secret's data, and no
 * nulls (an empty YAML value);</li>
 * <li>a few of the API server's rules the schema does not express: the syntax of names, port names and labels.</li>
 * </ol>
 * Enumerated values (a Service's type, a probe's scheme...) and cross-field rules are not checked here (the
 * consistency checks cover the ones that matter for these manifests).
 *
 * <p>The only custom resource is CloudNativePG's {@code Cluster} (postgresql.cnpg.io/v1), whose schema is not
 * available offline: for it only apiVersion, kind, metadata.name and the spec fields the deployment depends on
 * (instances, storage.size, bootstrap.initdb.database and owner) are checked. Any other apiVersion and kind is
 * refused.
 */
final class ApiSchema {

    static final String CNPG_CLUSTER = "postgresql.cnpg.io/v1/Cluster";

    private static final Map<String, Class<?>> MODELS = Map.ofEntries(
            Map.entry("v1/ConfigMap", V1ConfigMap.class),
            Map.entry("v1/Secret", V1Secret.class),
            Map.entry("v1/Service", V1Service.class),
            Map.entry("v1/ServiceAccount", V1ServiceAccount.class),
            Map.entry("v1/PersistentVolumeClaim", V1PersistentVolumeClaim.class),
            Map.entry("apps/v1/Deployment", V1Deployment.class),
            Map.entry("apps/v1/StatefulSet", V1StatefulSet.class),
            Map.entry("policy/v1/PodDisruptionBudget", V1PodDisruptionBudget.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", V2HorizontalPodAutoscaler.class),
            Map.entry("networking.k8s.io/v1/Ingress", V1Ingress.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", V1NetworkPolicy.class));

    private static final String MODELS_PACKAGE = "io.kubernetes.client.openapi.models";
    private static final Pattern QUANTITY =
            Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern PORT_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern LABEL_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Map<Class<?>, Map<String, Field>> FIELDS = new ConcurrentHashMap<>();

    private ApiSchema() {
    }

    /** The problems of one rendered resource; empty when the API would accept its shape. */
    static List<String> validate(Map<String, Object> resource) {
        String type = resource.get("apiVersion") + "/" + resource.get("kind");
        String where = type + " " + Manifests.name(resource);
        List<String> problems = new ArrayList<>();
        JsonElement json;
        try {
            json = Yaml.toJson(resource, where);
        } catch (IllegalArgumentException e) {
            return List.of(e.getMessage());
        }
        if (type.equals(CNPG_CLUSTER)) {
            cnpgCluster(json.getAsJsonObject(), where, problems);
            return problems;
        }
        Class<?> model = MODELS.get(type);
        if (model == null) {
            return List.of(where + ": apiVersion/kind not known to this check (add its model to ApiSchema.MODELS)");
        }
        try {
            model.getMethod("validateJsonElement", JsonElement.class).invoke(null, json);
        } catch (InvocationTargetException e) {
            problems.add(where + ": " + e.getCause().getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        walk(model, json, where, problems);
        names(resource, where, problems);
        return problems;
    }

    private static void walk(Class<?> model, JsonElement json, String path, List<String> problems) {
        if (!json.isJsonObject()) {
            problems.add(path + ": expected an object (" + model.getSimpleName() + "), got " + json);
            return;
        }
        Map<String, Field> fields = FIELDS.computeIfAbsent(model, ApiSchema::fieldsOf);
        for (Map.Entry<String, JsonElement> entry : json.getAsJsonObject().entrySet()) {
            Field field = fields.get(entry.getKey());
            if (field == null) {
                // validateJsonElement reports it; repeated here with its path (that one stops at its first problem)
                problems.add(path + "." + entry.getKey() + ": not a field of " + model.getSimpleName());
            } else {
                check(field.getGenericType(), entry.getValue(), path + "." + entry.getKey(), problems);
            }
        }
    }

    private static void check(Type type, JsonElement value, String path, List<String> problems) {
        if (value.isJsonNull()) {
            problems.add(path + ": null (an empty YAML value?)");
            return;
        }
        if (type instanceof ParameterizedType parameterized) {
            Type raw = parameterized.getRawType();
            Type[] arguments = parameterized.getActualTypeArguments();
            if (raw == List.class) {
                if (!value.isJsonArray()) {
                    problems.add(path + ": expected a list, got " + value);
                    return;
                }
                for (int i = 0; i < value.getAsJsonArray().size(); i++) {
                    check(arguments[0], value.getAsJsonArray().get(i), path + "[" + i + "]", problems);
                }
                return;
            }
            if (raw == Map.class) {
                if (!value.isJsonObject()) {
                    problems.add(path + ": expected a map, got " + value);
                    return;
                }
                for (Map.Entry<String, JsonElement> entry : value.getAsJsonObject().entrySet()) {
                    check(arguments[1], entry.getValue(), path + "." + entry.getKey(), problems);
                }
                return;
            }
            throw new IllegalStateException(path + ": a model field of type " + type + " this check does not know");
        }
        Class<?> c = (Class<?>) type;
        JsonPrimitive primitive = value.isJsonPrimitive() ? value.getAsJsonPrimitive() : null;
        boolean string = primitive != null && primitive.isString();
        boolean integer = primitive != null && primitive.isNumber() && primitive.getAsString().matches("-?[0-9]+");
        String name = c.getName();
        boolean ok;
        if (c == String.class || name.equals("java.time.OffsetDateTime") || name.equals("java.time.LocalDate")) {
            ok = string;
        } else if (c == Integer.class || c == Long.class) {
            ok = integer;
        } else if (c == Boolean.class) {
            ok = primitive != null && primitive.isBoolean();
        } else if (c == Double.class || c == Float.class || name.equals("java.math.BigDecimal")) {
            ok = primitive != null && primitive.isNumber();
        } else if (c == byte[].class) {
            ok = string && base64(primitive.getAsString());
        } else if (name.equals("io.kubernetes.client.custom.IntOrString")) {
            ok = string || integer;
        } else if (name.equals("io.kubernetes.client.custom.Quantity")) {
            ok = (string || (primitive != null && primitive.isNumber()))
                    && QUANTITY.matcher(primitive.getAsString()).matches();
        } else if (c == Object.class) {
            ok = true;
        } else if (c.getPackageName().equals(MODELS_PACKAGE)) {
            walk(c, value, path, problems);
            return;
        } else {
            throw new IllegalStateException(path + ": a model field of type " + type + " this check does not know");
        }
        if (!ok) {
            problems.add(path + ": expected " + c.getSimpleName() + ", got " + value);
        }
    }

    private static Map<String, Field> fieldsOf(Class<?> model) {
        Map<String, Field> fields = new LinkedHashMap<>();
        for (Field field : model.getDeclaredFields()) {
            SerializedName serialized = field.getAnnotation(SerializedName.class);
            if (!Modifier.isStatic(field.getModifiers()) && serialized != null) {
                fields.put(serialized.value(), field);
            }
        }
        return fields;
    }

    private static boolean base64(String value) {
        try {
            Base64.getDecoder().decode(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The API server's rules for names, port names and labels (apimachinery's validation), as far as used here. */
    private static void names(Map<String, Object> resource, String where, List<String> problems) {
        Map<String, Object> metadata = Yaml.map(resource.get("metadata"), where);
        String name = String.valueOf(metadata.get("name"));
        boolean service = "Service".equals(resource.get("kind"));
        Pattern pattern = service ? DNS_1035_LABEL : DNS_SUBDOMAIN;
        if (!pattern.matcher(name).matches() || name.length() > (service ? 63 : 253)) {
            problems.add(where + ": metadata.name is not a valid " + (service ? "DNS-1035 label" : "DNS subdomain"));
        }
        labels(metadata.get("labels"), where + " metadata.labels", problems);
        for (Map<String, Object> template : Manifests.podTemplates(resource)) {
            Object templateMetadata = template.get("metadata");
            if (templateMetadata instanceof Map<?, ?> m) {
                labels(m.get("labels"), where + " template labels", problems);
            }
            for (Map<String, Object> container : Manifests.containers(template)) {
                String containerName = String.valueOf(container.get("name"));
                if (!DNS_LABEL.matcher(containerName).matches() || containerName.length() > 63) {
                    problems.add(where + ": container name " + containerName + " is not a DNS label");
                }
                for (Map<String, Object> port : Manifests.maps(container.get("ports"))) {
                    portName(port.get("name"), where + " container " + containerName, problems);
                }
            }
        }
        if (service && resource.get("spec") instanceof Map<?, ?> spec) {
            for (Map<String, Object> port : Manifests.maps(spec.get("ports"))) {
                portName(port.get("name"), where, problems);
            }
        }
    }

    private static void portName(Object name, String where, List<String> problems) {
        if (name != null && !(PORT_NAME.matcher(name.toString()).matches() && name.toString().length() <= 15
                && name.toString().matches(".*[a-z].*") && !name.toString().contains("--"))) {
            problems.add(where + ": port name " + name + " is not an IANA service name (at most 15 characters a-z,"
                    + " 0-9, -, with a letter)");
        }
    }

    private static void labels(Object labels, String where, List<String> problems) {
        if (!(labels instanceof Map<?, ?> map)) {
            return;
        }
        map.forEach((k, v) -> {
            String key = String.valueOf(k);
            String prefix = key.contains("/") ? key.substring(0, key.indexOf('/')) : null;
            String name = key.substring(key.indexOf('/') + 1);
            if ((prefix != null && !(DNS_SUBDOMAIN.matcher(prefix).matches() && prefix.length() <= 253))
                    || !LABEL_NAME.matcher(name).matches() || name.length() > 63) {
                problems.add(where + ": label key " + key + " is not a qualified name");
            }
            String value = String.valueOf(v);
            if (!(value.isEmpty() || LABEL_NAME.matcher(value).matches()) || value.length() > 63) {
                problems.add(where + ": label value " + value + " is not valid");
            }
        });
    }

    /** Not a schema check (the CRD is not available offline): the fields this deployment relies on. */
    private static void cnpgCluster(JsonObject cluster, String where, List<String> problems) {
        for (String field : cluster.keySet()) {
            if (!Set.of("apiVersion", "kind", "metadata", "spec").contains(field)) {
                problems.add(where + ": unexpected top-level field " + field);
            }
        }
        JsonElement metadata = cluster.get("metadata");
        if (metadata == null || !metadata.isJsonObject() || !isString(metadata.getAsJsonObject().get("name"))) {
            problems.add(where + ": metadata.name is missing");
        }
        JsonElement spec = cluster.get("spec");
        if (spec == null || !spec.isJsonObject()) {
            problems.add(where + ": spec is missing");
            return;
        }
        JsonObject s = spec.getAsJsonObject();
        JsonElement instances = s.get("instances");
        if (instances == null || !instances.isJsonPrimitive() || !instances.getAsJsonPrimitive().isNumber()
                || instances.getAsInt() < 1) {
            problems.add(where + ": spec.instances must be a positive integer");
        }
        JsonElement storage = s.get("storage");
        if (storage == null || !storage.isJsonObject() || !isString(storage.getAsJsonObject().get("size"))
                || !QUANTITY.matcher(storage.getAsJsonObject().get("size").getAsString()).matches()) {
            problems.add(where + ": spec.storage.size must be a quantity");
        }
        JsonElement bootstrap = s.get("bootstrap");
        if (bootstrap != null) {
            JsonElement initdb = bootstrap.isJsonObject() ? bootstrap.getAsJsonObject().get("initdb") : null;
            if (initdb == null || !initdb.isJsonObject() || !isString(initdb.getAsJsonObject().get("database"))
                    || !isString(initdb.getAsJsonObject().get("owner"))) {
                problems.add(where + ": spec.bootstrap.initdb needs database and owner");
            }
        }
    }

    private static boolean isString(JsonElement element) {
        return element != null && element.isJsonPrimitive() && element.getAsJsonPrimitive().isString();
    }
}
