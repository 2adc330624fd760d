package ai.convo.deploy.k8s;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** YAML documents as plain maps, lists and scalars (SnakeYAML, safe constructor, duplicate keys refused). */
final class Yaml {

    private Yaml() {
    }

    /** Every non-empty document of the file. */
    static List<Object> loadAll(Path file) {
        try {
            return loadAll(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Object> loadAll(String text, String source) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        org.yaml.snakeyaml.Yaml yaml = new org.yaml.snakeyaml.Yaml(new SafeConstructor(options));
        List<Object> documents = new ArrayList<>();
        try {
            for (Object document : yaml.loadAll(text)) {
                if (document != null) {
                    documents.add(document);
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(source + ": not valid YAML: " + e.getMessage(), e);
        }
        return documents;
    }

    /** The file's only document, a mapping. */
    static Map<String, Object> loadMap(Path file) {
        List<Object> documents = loadAll(file);
        if (documents.size() != 1 || !(documents.get(0) instanceof Map)) {
            throw new IllegalArgumentException(file + ": expected exactly one YAML document, a mapping");
        }
        return map(documents.get(0), file.toString());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value, String where) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(where + ": expected a mapping, got " + describe(value));
        }
        for (Object key : ((Map<Object, Object>) value).keySet()) {
            if (!(key instanceof String)) {
                throw new IllegalArgumentException(where + ": a key that is not a string: " + key);
            }
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value, String where) {
        if (!(value instanceof List)) {
            throw new IllegalArgumentException(where + ": expected a sequence, got " + describe(value));
        }
        return (List<Object>) value;
    }

    static String describe(Object value) {
        return value == null ? "nothing (null)" : value.getClass().getSimpleName() + " " + value;
    }

    /** A deep copy: mappings stay ordered, scalars are shared (they are immutable). */
    @SuppressWarnings("unchecked")
    static <T> T copy(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, copy(v)));
            return (T) copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(copy(v)));
            return (T) copy;
        }
        return value;
    }

    /** The same tree as JSON; a YAML type JSON has not (a timestamp, binary, a set) is refused. */
    static JsonElement toJson(Object value, String path) {
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        if (value instanceof Map<?, ?> map) {
            JsonObject object = new JsonObject();
            map.forEach((k, v) -> {
                if (!(k instanceof String key)) {
                    throw new IllegalArgumentException(path + ": a key that is not a string: " + k);
                }
                object.add(key, toJson(v, path + "." + key));
            });
            return object;
        }
        if (value instanceof List<?> list) {
            JsonArray array = new JsonArray();
            for (int i = 0; i < list.size(); i++) {
                array.add(toJson(list.get(i), path + "[" + i + "]"));
            }
            return array;
        }
        if (value instanceof String s) {
            return new JsonPrimitive(s);
        }
        if (value instanceof Boolean b) {
            return new JsonPrimitive(b);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger || value instanceof Double) {
            return new JsonPrimitive((Number) value);
        }
        throw new IllegalArgumentException(path + ": a YAML value JSON cannot hold (quote it): " + describe(value));
    }
}
