package ai.convo.command.training;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
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

/**
 * A sentence's features: the Lucene analyser of the locale's nluLanguage (its stemmer; CJK bigrams for ja/ko/zh),
 * then every distinct analysed token ({@code w:}) and pair of neighbouring tokens ({@code b:}). Stop words are kept:
 * in short utterances ("not now", "what is it") they are often all there is.
 */
final class Features {

    private final Analyzer analyzer;
    private final String name;

    private Features(Analyzer analyzer) {
        this.analyzer = analyzer;
        this.name = analyzer.getClass().getSimpleName() + "(no stop words)+w1+w2";
    }

    /** The analyser for a wire nluLanguage ("en-US"); languages Lucene has no analyser for get its standard one. */
    static Features forLanguage(String nluLanguage) {
        CharArraySet none = CharArraySet.EMPTY_SET;
        String language = nluLanguage == null ? "" : nluLanguage;
        Analyzer analyzer = switch (language) {
            case "en-US", "en-GB", "en-AU", "en-CA", "en-IN" -> new EnglishAnalyzer(none);
            case "de-DE" -> new GermanAnalyzer(none);
            case "da-DK" -> new DanishAnalyzer(none);
            case "es-ES" -> new SpanishAnalyzer(none);
            case "nl-NL" -> new DutchAnalyzer(none);
            case "ar-AE" -> new ArabicAnalyzer(none);
            case "fi-FI" -> new FinnishAnalyzer(none);
            case "fr-FR" -> new FrenchAnalyzer(none);
            case "it-IT" -> new ItalianAnalyzer(none);
            case "nn-NO" -> new NorwegianAnalyzer(none);
            case "sv-SE" -> new SwedishAnalyzer(none);
            case "th-TH" -> new ThaiAnalyzer(none);
            case "ja-JP", "ko-KR", "zh-CN" -> new CJKAnalyzer(none);
            case "pt-BR" -> new BrazilianAnalyzer(none);
            case "pt-PT" -> new PortugueseAnalyzer(none);
            case "ru-RU" -> new RussianAnalyzer(none);
            case "tr-TR" -> new TurkishAnalyzer(none);
            case "hi-IN" -> new HindiAnalyzer(none);
            case "bn-IN" -> new BengaliAnalyzer(none);
            case "ta-IN" -> new TamilAnalyzer(none);
            default -> new StandardAnalyzer(none); // ge-GE (universal), pl-PL, vi-VN
        };
        return new Features(analyzer);
    }

    /** Names the analyser and the feature set; part of a model's id. */
    String name() {
        return name;
    }

    /** The sentence's distinct feature names, sorted. */
    String[] of(String text) {
        List<String> tokens = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream("s", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                tokens.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TreeSet<String> features = new TreeSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            features.add("w:" + tokens.get(i));
            if (i > 0) {
                features.add("b:" + tokens.get(i - 1) + ' ' + tokens.get(i));
            }
        }
        return features.toArray(String[]::new);
    }
}
