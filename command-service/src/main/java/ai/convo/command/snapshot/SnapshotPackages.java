package ai.convo.command.snapshot;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.snapshot.SnapshotResource;
import ai.convo.http.body.StorableJson;
import ai.convo.http.problem.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Snapshot packages and their download links. A package is a JSON document: its format, the snapshot's name and
 * description, its canonical content (base64) with that content's SHA-256, and an HMAC-SHA256 over all of them with
 * a key the services make once and keep in the database. An uploaded package is taken only when its format is this
 * one, its content hashes to its hash and its MAC is right: a package edited by hand, or made by another deployment,
 * is refused. A download link names the snapshot, the user it was made for and when it expires, and is signed with
 * a second key: it works for that user only, for one day.
 */
@Component
class SnapshotPackages {

    static final String FORMAT = "convo-snapshot-package/1";
    static final long LINK_SECONDS = 24 * 60 * 60;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** An uploaded package, checked. */
    record Unpacked(String name, String description, byte[] content, String hash, String resources) {

        /** The resources the package lists (see SnapshotResource). */
        List<SnapshotResource> resourceList() {
            return JSON.readValue(resources, new tools.jackson.core.type.TypeReference<List<SnapshotResource>>() { });
        }
    }

    private final JdbcTemplate jdbc;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, byte[]> keys = new java.util.concurrent.ConcurrentHashMap<>();

    SnapshotPackages(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The package of a created snapshot (its content, name and description). */
    byte[] build(String snapshotId) {
        List<Map<String, Object>> stored = jdbc.queryForList("SELECT hash, content FROM cmd_snapshot_content "
                + "WHERE snapshot_id = ?", snapshotId);
        if (stored.isEmpty()) {
            throw DomainException.notFound("Snapshot " + snapshotId + " has no content (yet); nothing to package.");
        }
        byte[] content = (byte[]) stored.get(0).get("content");
        String hash = (String) stored.get(0).get("hash");
        List<String> requested = jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry "
                + "WHERE payload_type = 'ai.convo.contract.snapshot.SnapshotRequestedEvent' "
                + "AND convert_from(payload, 'UTF8')::jsonb ->> 'snapshotId' = ?", String.class, snapshotId);
        JsonNode request = requested.isEmpty() ? JSON.createObjectNode() : JSON.readTree(requested.get(0));
        String name = request.path("name").asString("snapshot " + snapshotId);
        String description = request.path("description").isString() ? request.path("description").asString() : "";
        List<String> listed = jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry "
                + "WHERE payload_type = 'ai.convo.contract.snapshot.SnapshotResourcesListedEvent' "
                + "AND convert_from(payload, 'UTF8')::jsonb ->> 'snapshotId' = ?", String.class, snapshotId);
        String resources = listed.isEmpty() ? "[]" : JSON.writeValueAsString(JSON.readTree(listed.get(0)).path("resources"));
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("format", FORMAT);
        document.put("name", name);
        document.put("description", description);
        document.put("hash", hash);
        document.put("resources", resources);
        document.put("content", Base64.getEncoder().encodeToString(content));
        document.put("mac", mac("packages", signed(name, description, hash, resources, content)));
        return JSON.writeValueAsBytes(document);
    }

    /** Checks an uploaded package; a 400 naming what is wrong with it otherwise. */
    Unpacked open(byte[] bytes) {
        JsonNode document;
        try {
            document = JSON.readTree(bytes);
        } catch (JacksonException e) {
            document = null;
        }
        if (document == null || !document.isObject() || !FORMAT.equals(document.path("format").asString(""))) {
            throw refused("The file is not a snapshot package of this server (format " + FORMAT + ").");
        }
        for (String field : List.of("name", "description", "hash", "resources", "content", "mac")) {
            if (!document.path(field).isString()) {
                throw refused("The package has no " + field + "; it is not a complete package of this server.");
            }
        }
        String name = document.get("name").asString();
        String description = document.get("description").asString();
        String hash = document.get("hash").asString();
        String resources = document.get("resources").asString();
        byte[] content;
        try {
            content = Base64.getDecoder().decode(document.get("content").asString());
        } catch (IllegalArgumentException e) {
            throw refused("The package's content is not base64; the package was changed after it was made.");
        }
        if (!SnapshotCodec.hash(content).equals(hash) || !MessageDigest.isEqual(
                mac("packages", signed(name, description, hash, resources, content)).getBytes(StandardCharsets.US_ASCII),
                document.get("mac").asString().getBytes(StandardCharsets.US_ASCII))) {
            throw refused("The package was changed after it was made, or made by another deployment: its signature "
                    + "does not match its content. Upload the package as it was downloaded.");
        }
        Unpacked unpacked = new Unpacked(name, description, content, hash, resources);
        try {
            SnapshotCodec.decode(content);
            unpacked.resourceList();
        } catch (RuntimeException e) {
            throw refused("The package's content is not a snapshot this server can read.");
        }
        // signed by this deployment, but possibly made from events stored before such text was refused at the door
        Map<String, Object> unstorable = StorableJson.problems(document);
        if (unstorable.isEmpty()) {
            unstorable = StorableJson.problems(JSON.readTree(resources));
        }
        if (unstorable.isEmpty()) {
            unstorable = StorableJson.problems(JSON.readTree(content));
        }
        if (!unstorable.isEmpty()) {
            Map.Entry<String, Object> first = unstorable.entrySet().iterator().next();
            throw refused("The package holds text that cannot be stored (" + first.getKey() + " " + first.getValue()
                    + "); it cannot be restored.");
        }
        if (name.isBlank() || name.length() > ai.convo.contract.snapshot.SnapshotLimits.MAX_NAME_LENGTH) {
            throw refused("The package's snapshot name is not one this server accepts.");
        }
        return unpacked;
    }

    /** A download link token: the snapshot, the user, the expiry, signed. */
    String linkToken(String snapshotId, String userId, long now) {
        String claims = snapshotId + "." + userId + "." + (now + LINK_SECONDS);
        return claims + "." + mac("links", claims.getBytes(StandardCharsets.US_ASCII));
    }

    /** Checks a download link token for this snapshot and user; a 403 saying why otherwise. */
    void checkLink(String token, String snapshotId, String userId, long now) {
        String[] parts = token == null ? new String[0] : token.split("\\.");
        if (parts.length != 4 || !MessageDigest.isEqual(
                mac("links", (parts[0] + "." + parts[1] + "." + parts[2]).getBytes(StandardCharsets.US_ASCII))
                        .getBytes(StandardCharsets.US_ASCII), parts[3].getBytes(StandardCharsets.US_ASCII))) {
            throw forbidden("This is not a download link of this server; compose one with POST .../downloadlink.");
        }
        if (!parts[0].equals(snapshotId)) {
            throw forbidden("This download link is for another snapshot.");
        }
        if (!parts[1].equals(userId)) {
            throw forbidden("This download link was made for another user; compose your own.");
        }
        Long expires = ai.convo.http.param.WholeNumbers.parse(parts[2]);
        if (expires == null) {
            throw forbidden("This is not a download link of this server.");
        }
        if (now > expires) {
            throw forbidden("This download link expired (links last one day); compose a new one.");
        }
    }

    private static byte[] signed(String name, String description, String hash, String resources, byte[] content) {
        byte[] head = (FORMAT + "\n" + name + "\n" + description + "\n" + hash + "\n" + resources + "\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + content.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(content, 0, all, head.length, content.length);
        return all;
    }

    private String mac(String keyName, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(keyName), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(data));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** The named key, made on first use; every replica reads the same one. */
    private byte[] key(String name) {
        return keys.computeIfAbsent(name, this::loadKey);
    }

    private byte[] loadKey(String name) {
        byte[] fresh = new byte[32];
        random.nextBytes(fresh);
        jdbc.update("INSERT INTO cmd_signing_key (name, key) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", name, fresh);
        return jdbc.queryForObject("SELECT key FROM cmd_signing_key WHERE name = ?", byte[].class, name);
    }

    private static ApiProblem refused(String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, detail, Map.of("file", detail));
    }

    private static ApiProblem forbidden(String detail) {
        return new ApiProblem(HttpStatus.FORBIDDEN, detail, Map.of("token", detail));
    }
}
