package ai.convo.command.training;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * What a flow's intents train on in one locale: one example per sentence of an enabled intent, in canonical order
 * (the UTF-8 bytes of {@link #line}, as PostgreSQL's {@code COLLATE "C"} orders them), so the order the log was read
 * in changes nothing. {@link #hash()} is what {@code isTrainingOutOfDate} compares; the query side computes the same
 * hash in SQL (V27), so the line format is frozen.
 */
public record TrainingSet(String language, List<Example> examples) {

    /** An example: the intent (its id is the label; its name is shown in reports) and one sentence. */
    public record Example(String intentId, String intentName, String text) {

        public Example {
            intentName = Normalizer.normalize(intentName, Normalizer.Form.NFC);
            text = Normalizer.normalize(text, Normalizer.Form.NFC);
        }

        /** {@code intentId TAB name TAB text LF}, NFC-normalised. */
        byte[] line() {
            return (intentId + '\t' + intentName + '\t' + text + '\n').getBytes(StandardCharsets.UTF_8);
        }
    }

    public TrainingSet {
        List<Example> sorted = new ArrayList<>(examples);
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.line(), b.line()));
        examples = List.copyOf(sorted);
    }

    /** SHA-256 (hex) of the lines in canonical order. */
    public String hash() {
        MessageDigest digest = sha256();
        for (Example example : examples) {
            digest.update(example.line());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The distinct intents (id, name) in canonical order. */
    public List<String> intentIds() {
        return examples.stream().map(Example::intentId).distinct().sorted().toList();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
