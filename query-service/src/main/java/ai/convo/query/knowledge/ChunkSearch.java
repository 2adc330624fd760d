package ai.convo.query.knowledge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * words). The index is derived data, built from the read model and kept in memory only while the chunks it was
 * built from are unchanged (see {@link StoreIndexes}): never a source of truth, rebuilt whenever needed.
 */
final class ChunkSearch {

    /** A chunk to search: its id and text; the answer maps ids back to the rows read. */
    record Chunk(String id, String text) {
    }

    record Hit(String id, double score, List<String> matchedTerms) {
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

        private Index(String language, ByteBuffersDirectory directory, int size) throws IOException {
            this.language = language;
            this.directory = directory;
            this.reader = DirectoryReader.open(directory);
            this.searcher = new IndexSearcher(reader);
            this.size = size;
        }

        int size() {
            return size;
        }

        /** The best {@code limit} chunks for the query's analysed terms (any of them, BM25). */
        Result search(String query, int limit) {
            try (Analyzer analyser = analyser(language)) {
                List<String> terms = terms(analyser, query);
                String name = analyser.getClass().getSimpleName();
                if (terms.isEmpty() || size == 0) {
                    return new Result(name, terms, List.of());
                }
                BooleanQuery.Builder any = new BooleanQuery.Builder();
                for (String term : new LinkedHashSet<>(terms)) {
                    any.add(new TermQuery(new Term("text", term)), BooleanClause.Occur.SHOULD);
                }
                List<Hit> hits = new ArrayList<>();
                for (ScoreDoc found : searcher.search(any.build(), limit).scoreDocs) {
                    hits.add(new Hit(searcher.storedFields().document(found.doc).get("id"), found.score, List.of()));
                }
                return new Result(name, terms, hits);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
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

    /** Indexes the chunks' text (not stored: the read model holds it) under their ids. */
    static Index build(String language, List<Chunk> chunks) {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        try (Analyzer analyser = analyser(language);
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyser))) {
            for (Chunk chunk : chunks) {
                Document document = new Document();
                document.add(new StoredField("id", chunk.id()));
                document.add(new TextField("text", chunk.text(), Field.Store.NO));
                writer.addDocument(document);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return new Index(language, directory, chunks.size());
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
        try (Index index = build(language, chunks)) {
            return index.search(query, limit);
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

    static Map<String, Object> wire(Hit hit, List<String> matchedTerms, Map<String, Object> chunk) {
        return Map.of("score", hit.score(), "matchedTerms", matchedTerms, "knowledgeChunk", chunk);
    }
}
