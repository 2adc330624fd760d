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
 * words). The index is derived data, built from the read model for the search and dropped after it: nothing to keep
 * in step with the log. Each hit says which of the query's analysed terms it holds.
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

    static Result search(String language, List<Chunk> chunks, String query, int limit) {
        try (Analyzer analyser = analyser(language); ByteBuffersDirectory directory = new ByteBuffersDirectory()) {
            String name = analyser.getClass().getSimpleName();
            List<String> terms = terms(analyser, query);
            if (terms.isEmpty() || chunks.isEmpty()) {
                return new Result(name, terms, List.of());
            }
            try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyser))) {
                for (Chunk chunk : chunks) {
                    Document document = new Document();
                    document.add(new StoredField("id", chunk.id()));
                    document.add(new TextField("text", chunk.text(), Field.Store.YES));
                    writer.addDocument(document);
                }
            }
            BooleanQuery.Builder any = new BooleanQuery.Builder();
            for (String term : new LinkedHashSet<>(terms)) {
                any.add(new TermQuery(new Term("text", term)), BooleanClause.Occur.SHOULD);
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                List<Hit> hits = new ArrayList<>();
                for (ScoreDoc found : searcher.search(any.build(), limit).scoreDocs) {
                    Document document = searcher.storedFields().document(found.doc);
                    Set<String> present = new LinkedHashSet<>(terms(analyser, document.get("text")));
                    List<String> matched = new LinkedHashSet<>(terms).stream().filter(present::contains).toList();
                    hits.add(new Hit(document.get("id"), found.score, matched));
                }
                return new Result(name, terms, hits);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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

    static Map<String, Object> wire(Hit hit, Map<String, Object> chunk) {
        return Map.of("score", hit.score(), "matchedTerms", hit.matchedTerms(), "knowledgeChunk", chunk);
    }
}
