package ai.convo.http.openapi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The official client's method names by route (client-operations.tsv beside this class, read from the client by
 * deploy/compat/operation-ids.mjs): an operation the client calls is named as the client names it.
 */
final class ClientOperations {

    private final Map<String, String> names;

    private ClientOperations(Map<String, String> names) {
        this.names = names;
    }

    static ClientOperations load() {
        Map<String, String> names = new HashMap<>();
        try (InputStream in = ClientOperations.class.getResourceAsStream("client-operations.tsv");
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String[] cells = line.split("\t");
                if (line.startsWith("#") || cells.length != 3) {
                    continue;
                }
                names.putIfAbsent(cells[1] + " " + cells[2], cells[0]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ClientOperations(names);
    }

    /** The client's name for {@code method} on {@code pattern} (below the base path, variables in braces). */
    Optional<String> nameOf(String method, String pattern) {
        return Optional.ofNullable(names.get(method + " " + pattern.replaceAll("\\{[^}]*}", "{}")));
    }
}
