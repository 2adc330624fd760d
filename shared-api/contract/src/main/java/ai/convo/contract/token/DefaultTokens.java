package ai.convo.contract.token;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * The built-in Tokens every project has. They are not stored as events: their ids and referenceIds are
 * derived from the project id and the label, so every replay, restore and service computes the same ones.
 * They can be read by id but never appear in the list, and cannot be changed or deleted.
 * Never change a definition's label: that would change its id.
 */
public final class DefaultTokens {

    public record Definition(String label, TokenType type, String script) {
    }

    public static final List<Definition> DEFINITIONS = List.of(
            new Definition("First Name", TokenType.PROFILE, "profile.firstname"),
            new Definition("Last Name", TokenType.PROFILE, "profile.lastname"),
            new Definition("E-Mail", TokenType.PROFILE, "profile.email"),
            new Definition("Input Text", TokenType.INPUT, "input.text"),
            new Definition("Context", TokenType.CONTEXT, "context"),
            new Definition("Flow Output", TokenType.FLOW_OUTPUT, "input.flowOutput"));

    private DefaultTokens() {
    }

    /** The first 24 hex characters of SHA-256(projectId + ":" + label). */
    public static String idFor(String projectId, String label) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((projectId + ":" + label).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A name-based UUID of the same input, stable like the id. */
    public static String referenceIdFor(String projectId, String label) {
        return UUID.nameUUIDFromBytes(("default-token:" + projectId + ":" + label).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /** The default Tokens of a project, with the project's creation as their meta. */
    public static List<TokenRecord> forProject(String projectId, String createdBy, long createdAt) {
        return DEFINITIONS.stream()
                .map(d -> new TokenRecord(idFor(projectId, d.label()), d.label(), d.type().code(), d.script(),
                        referenceIdFor(projectId, d.label()), createdAt, createdAt, createdBy, createdBy))
                .toList();
    }

    /** The definition whose id in this project is {@code tokenId}, if it is a default Token. */
    public static Optional<Definition> byId(String projectId, String tokenId) {
        return DEFINITIONS.stream().filter(d -> idFor(projectId, d.label()).equals(tokenId)).findFirst();
    }

    /** The definition with this label, ignoring case. */
    public static Optional<Definition> byLabel(String label) {
        String wanted = label.toLowerCase(Locale.ROOT);
        return DEFINITIONS.stream().filter(d -> d.label().toLowerCase(Locale.ROOT).equals(wanted)).findFirst();
    }
}
