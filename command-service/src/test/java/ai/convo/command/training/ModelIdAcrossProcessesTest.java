package ai.convo.command.training;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * "The same log position trains the same model on any replica and after a rebuild": the training sets are trained
 * here and in a second JVM (another process, as a replica or a rebuilt service is) that differs in what could leak
 * into a model: its garbage collector and heap, its default locale (Turkish, whose lower case of I is not i), its
 * default charset and its identity hash codes. Both print each model's id and the sha-256 of its bytes.
 */
class ModelIdAcrossProcessesTest {

    /** The sets: small flows (LibLinear's multi-class model) and one of 100 intents. */
    static List<TrainingSet> sets() {
        return List.of(new TrainingSet("en-US", IntentTrainerTest.travel()),
                new TrainingSet("de-DE", IntentTrainerTest.travel()), IntentTrainingBench.flow(2_000, 100));
    }

    /**
     * Each set's model id and the sha-256 of its bytes, one line each; then the sparse trainer's stored form of the
     * last set (the form a flow of many intents gets, trained here on a set small enough for a quick test).
     */
    static List<String> fingerprints() {
        List<String> lines = new ArrayList<>();
        for (TrainingSet set : sets()) {
            IntentTrainer.Trained trained = IntentTrainer.train(set);
            lines.add(trained.modelId() + " " + HexFormat.of().formatHex(sha256(trained.bytes())));
        }
        TrainingSet many = sets().get(2);
        List<String[]> features = many.examples().stream().map(e -> Features.forLanguage("en-US").of(e.text()))
                .toList();
        byte[] sparse = IntentModel.write(IntentTrainer.config("en-US"), "en-US", SampledOneVsRest.train(
                many.examples(), features, Cancellation.NEVER));
        lines.add("sparse " + HexFormat.of().formatHex(sha256(sparse)));
        return lines;
    }

    /** The second process: prints the fingerprints. */
    public static void main(String[] args) {
        fingerprints().forEach(System.out::println);
    }

    @Test
    void anotherProcessTrainsTheSameModelIdsAndBytes() throws Exception {
        // given the fingerprints trained in this JVM, dense and sparse
        List<String> here = fingerprints();
        assertEquals(4, here.size());

        // when another JVM, with another collector, locale and charset, trains the same sets
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-Xmx512m", "-Duser.language=tr",
                "-Duser.country=TR", "-Dfile.encoding=ISO-8859-1", "-cp", System.getProperty("java.class.path"),
                ModelIdAcrossProcessesTest.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out;
        try {
            out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        } finally {
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
            }
        }

        // then it printed the same ids and bytes, line for line
        assertEquals(0, process.exitValue(), out);
        assertEquals(here, out.lines().toList());
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
