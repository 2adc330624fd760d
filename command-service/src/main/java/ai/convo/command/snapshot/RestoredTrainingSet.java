package ai.convo.command.snapshot;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The hash of the training set a restored flow will have in one locale, computed from the snapshot before anything
 * is written, so a restore pins a training only where it is exact. The line format is training's frozen one
 * (TrainingSet, and V27 in SQL): {@code intentId TAB name TAB text LF}, NFC, sorted by UTF-8 bytes; written here
 * again because training reads snapshot's capture (RestoredTrainingSetTest holds the two equal).
 */
final class RestoredTrainingSet {

    private RestoredTrainingSet() {
    }

    static String hash(SnapshotContent.Flow flow, String localeReference, Map<String, String> intentIds) {
        List<byte[]> lines = new ArrayList<>();
        for (SnapshotContent.Intent intent : flow.intents()) {
            if (intent.disabled()) {
                continue;
            }
            for (SnapshotContent.Sentence sentence : intent.sentences()) {
                if (localeReference.equals(sentence.localeReference())) {
                    lines.add(line(intentIds.get(intent.referenceId()), intent.name(), sentence.text()));
                }
            }
        }
        return hashOfLines(lines);
    }

    static byte[] line(String intentId, String name, String text) {
        return (intentId + '\t' + Normalizer.normalize(name, Normalizer.Form.NFC) + '\t'
                + Normalizer.normalize(text, Normalizer.Form.NFC) + '\n').getBytes(StandardCharsets.UTF_8);
    }

    static String hashOfLines(List<byte[]> lines) {
        lines.sort(Arrays::compareUnsigned);
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            lines.forEach(digest::update);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
