package ai.convo.query.knowledge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.ar.ArabicAnalyzer;
import org.apache.lucene.analysis.bn.BengaliAnalyzer;
import org.apache.lucene.analysis.br.BrazilianAnalyzer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.da.DanishAnalyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fi.FinnishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.hi.HindiAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.nl.DutchAnalyzer;
import org.apache.lucene.analysis.no.NorwegianAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.sv.SwedishAnalyzer;
import org.apache.lucene.analysis.ta.TamilAnalyzer;
import org.apache.lucene.analysis.th.ThaiAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tr.TurkishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * BM25 (Lucene's default similarity) over a store's chunks, analysed with the store's language (stemming and stop
 * words), fused by reciprocal rank with the cosine similarity of the chunks' embeddings where the store has them
 * ({@link ChunkEmbedder}), so a question in other words than the chunk's still finds it. The index is derived data,
 * built from the read model and kept in memory only while the chunks it was built from are unchanged (see
 * {@link StoreIndexes}): never a source of truth, rebuilt whenever needed.
 */
final class ChunkSearch {

    /** How far down each ranking the fusion looks. */
    static final int DEPTH = 100;
    /** Reciprocal rank fusion's constant (Cormack et al. 2009): a rank r adds 1 / (K + r). */
    static final int RRF_K = 60;
    /**
     * The cosine a chunk needs to count as a vector match: MiniLM gives unrelated English texts ~0.0-0.25 and
     * paraphrases ~0.5 and more, so a query of no meaning (stop words) finds nothing rather than its nearest noise.
     */
    static final double MIN_SIMILARITY = 0.3;

    /** A chunk to search: its id, text and unit-length embedding (null while it has none). */
    record Chunk(String id, String text, float[] vector) {
        Chunk(String id, String text) {
            this(id, text, null);
        }
    }

    /**
     * A found chunk: its fused score, and why: its BM25 score and rank, its cosine similarity and rank (each null
     * where that ranking did not find it).
     */
    record Hit(String id, double score, Double bm25, Integer bm25Rank, Double similarity, Integer vectorRank) {
    }

    record Result(String analyser, List<String> queryTerms, List<Hit> hits) {
    }

    private ChunkSearch() {
    }

    static Analyzer analyser(String language) {
        return switch (language == null ? "" : language) {
            case "en-US", "en-GB", "en-AU", "en-CA", "en-IN" -> new EnglishAnalyzer();
            case "de-DE" -> new GermanAnalyzer();
            case "da-DK" -> new DanishAnalyzer();
            case "es-ES" -> new SpanishAnalyzer();
            case "nl-NL" -> new DutchAnalyzer();
            case "ar-AE" -> new ArabicAnalyzer();
            case "fi-FI" -> new FinnishAnalyzer();
            case "fr-FR" -> new FrenchAnalyzer();
            case "it-IT" -> new ItalianAnalyzer();
            case "nn-NO" -> new NorwegianAnalyzer();
            case "sv-SE" -> new SwedishAnalyzer();
            case "th-TH" -> new ThaiAnalyzer();
            case "ja-JP", "ko-KR", "zh-CN" -> new CJKAnalyzer();
            case "pt-BR" -> new BrazilianAnalyzer();
            case "pt-PT" -> new PortugueseAnalyzer();
            case "ru-RU" -> new RussianAnalyzer();
            case "tr-TR" -> new TurkishAnalyzer();
            case "hi-IN" -> new HindiAnalyzer();
            case "bn-IN" -> new BengaliAnalyzer();
            case "ta-IN" -> new TamilAnalyzer();
            default -> new StandardAnalyzer(); // ge-GE (universal), pl-PL, vi-VN
        };
    }

    /** A built index of a store's chunks: searchable until the chunks change (then built again). */
    static final class Index implements AutoCloseable {
        private final String language;
        private final ByteBuffersDirectory directory;
        private final DirectoryReader reader;
        private final IndexSearcher searcher;
        private final int size;
        /** The embedded chunks' ids and vectors, one flat array ({@code embedded} x dimensions). */
        private final String[] embeddedIds;
        private final float[] vectors;

        private Index(String language, ByteBuffersDirectory directory, int size, String[] embeddedIds,
                      float[] vectors) throws IOException {
            this.language = language;
            this.directory = directory;
            this.reader = DirectoryReader.open(directory);
            this.searcher = new IndexSearcher(reader);
            this.size = size;
            this.embeddedIds = embeddedIds;
            this.vectors = vectors;
        }

        int size() {
            return size;
        }

        /** How many of the chunks have an embedding (the vector side searches those only). */
        int embedded() {
            return embeddedIds.length;
        }

        /** BM25 alone (a store without embeddings, or a query not embedded). */
        Result search(String query, int limit) {
            return search(query, null, limit);
        }

        /**
         * The best {@code limit} chunks: BM25 over the query's analysed terms (any of them) and, given the query's
         * embedding, cosine similarity, fused by reciprocal rank.
         */
        Result search(String query, float[] queryVector, int limit) {
            try (Analyzer analyser = analyser(language)) {
                List<String> terms = terms(analyser, query);
                String name = analyser.getClass().getSimpleName();
                Map<String, double[]> fused = new LinkedHashMap<>(); // id -> score, bm25, bm25Rank, cosine, vectorRank
                if (!terms.isEmpty() && size > 0) {
                    BooleanQuery.Builder any = new BooleanQuery.Builder();
                    for (String term : new LinkedHashSet<>(terms)) {
                        any.add(new TermQuery(new Term("text", term)), BooleanClause.Occur.SHOULD);
                    }
                    int rank = 0;
                    for (ScoreDoc found : searcher.search(any.build(), Math.max(limit, DEPTH)).scoreDocs) {
                        rank++;
                        double[] entry = fused.computeIfAbsent(searcher.storedFields().document(found.doc).get("id"),
                                id -> new double[] {0, Double.NaN, Double.NaN, Double.NaN, Double.NaN});
                        entry[0] += 1.0 / (RRF_K + rank);
                        entry[1] = found.score;
                        entry[2] = rank;
                    }
                }
                if (queryVector != null) {
                    int rank = 0;
                    for (int[] nearest : nearest(queryVector, Math.max(limit, DEPTH))) {
                        rank++;
                        double similarity = Float.intBitsToFloat(nearest[1]);
                        double[] entry = fused.computeIfAbsent(embeddedIds[nearest[0]],
                                id -> new double[] {0, Double.NaN, Double.NaN, Double.NaN, Double.NaN});
                        entry[0] += 1.0 / (RRF_K + rank);
                        entry[3] = similarity;
                        entry[4] = rank;
                    }
                }
                // equal fused scores (e.g. each ranking's first when they disagree): the nearer in meaning first
                List<Hit> hits = fused.entrySet().stream()
                        .sorted(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -e.getValue()[0])
                                .thenComparingDouble(e -> Double.isNaN(e.getValue()[3]) ? 1 : -e.getValue()[3]))
                        .limit(limit)
                        .map(e -> new Hit(e.getKey(), e.getValue()[0], orNull(e.getValue()[1]),
                                rank(e.getValue()[2]), orNull(e.getValue()[3]), rank(e.getValue()[4]))).toList();
                return new Result(name, terms, hits);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * The embedded chunks at or above {@link #MIN_SIMILARITY}, most similar first, at most {@code depth}: pairs of
         * (position, float bits of the cosine). Exact (a scan of every vector): ~4 M multiply-adds at 10,000 chunks.
         */
        private List<int[]> nearest(float[] query, int depth) {
            int dimensions = query.length;
            PriorityQueue<int[]> best = new PriorityQueue<>(
                    (a, b) -> Float.compare(Float.intBitsToFloat(a[1]), Float.intBitsToFloat(b[1])));
            for (int i = 0; i < embeddedIds.length; i++) {
                float dot = 0;
                int offset = i * dimensions;
                for (int d = 0; d < dimensions; d++) {
                    dot += query[d] * vectors[offset + d];
                }
                if (dot < MIN_SIMILARITY) {
                    continue;
                }
                if (best.size() < depth) {
                    best.add(new int[] {i, Float.floatToIntBits(dot)});
                } else if (dot > Float.intBitsToFloat(best.peek()[1])) {
                    best.poll();
                    best.add(new int[] {i, Float.floatToIntBits(dot)});
                }
            }
            List<int[]> ordered = new ArrayList<>(best);
            ordered.sort((a, b) -> Float.compare(Float.intBitsToFloat(b[1]), Float.intBitsToFloat(a[1])));
            return ordered;
        }

        private static Double orNull(double value) {
            return Double.isNaN(value) ? null : value;
        }

        private static Integer rank(double value) {
            return Double.isNaN(value) ? null : (int) value;
        }

        @Override
        public void close() {
            try {
                reader.close();
                directory.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Indexes the chunks' text (not stored: the read model holds it) under their ids, and keeps their vectors. */
    static Index build(String language, List<Chunk> chunks) {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        List<String> embeddedIds = new ArrayList<>();
        int dimensions = chunks.stream().filter(c -> c.vector() != null).mapToInt(c -> c.vector().length).findFirst()
                .orElse(0);
        int embedded = (int) chunks.stream().filter(c -> c.vector() != null && c.vector().length == dimensions).count();
        float[] vectors = new float[embedded * dimensions];
        try (Analyzer analyser = analyser(language);
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyser))) {
            for (Chunk chunk : chunks) {
                Document document = new Document();
                document.add(new StoredField("id", chunk.id()));
                document.add(new TextField("text", chunk.text(), Field.Store.NO));
                writer.addDocument(document);
                if (chunk.vector() != null && chunk.vector().length == dimensions) {
                    System.arraycopy(chunk.vector(), 0, vectors, embeddedIds.size() * dimensions, dimensions);
                    embeddedIds.add(chunk.id());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return new Index(language, directory, chunks.size(), embeddedIds.toArray(String[]::new), vectors);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Which of the query's terms a chunk's text holds, in the query's order. */
    static List<String> matched(String language, List<String> queryTerms, String text) {
        try (Analyzer analyser = analyser(language)) {
            Set<String> present = new LinkedHashSet<>(terms(analyser, text));
            return new LinkedHashSet<>(queryTerms).stream().filter(present::contains).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds, searches and drops an index (benchmarks and one-off searches). */
    static Result search(String language, List<Chunk> chunks, String query, int limit) {
        return search(language, chunks, query, null, limit);
    }

    static Result search(String language, List<Chunk> chunks, String query, float[] queryVector, int limit) {
        try (Index index = build(language, chunks)) {
            return index.search(query, queryVector, limit);
        }
    }

    /** The analysed terms of {@code text}, in order (what BM25 matches on). */
    static List<String> terms(Analyzer analyser, String text) throws IOException {
        List<String> terms = new ArrayList<>();
        try (TokenStream tokens = analyser.tokenStream("text", text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken()) {
                terms.add(term.toString());
            }
            tokens.end();
        }
        return terms;
    }

    /** A hit as answered: its fused score and why it matched (absent parts of the explanation are null). */
    static Map<String, Object> wire(Hit hit, List<String> matchedTerms, Map<String, Object> chunk) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("score", hit.score());
        wire.put("matchedTerms", matchedTerms);
        wire.put("bm25", hit.bm25());
        wire.put("bm25Rank", hit.bm25Rank());
        wire.put("similarity", hit.similarity());
        wire.put("vectorRank", hit.vectorRank());
        wire.put("knowledgeChunk", chunk);
        return wire;
    }
}
