package ai.convo.command.knowledge.ingest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (its name ends in Bench): run with -Dtest=IngestionThroughputBench. Text extraction and
 * chunking of generated PDFs and DOCX files of several sizes, medians of 3 runs after one warm-up run each.
 */
class IngestionThroughputBench {

    private static final String LINE = "The customer service desk opens at nine and closes at five on weekdays.";

    private static String page(int n) {
        StringBuilder text = new StringBuilder("Page " + n + ".");
        for (int i = 0; i < 40; i++) {
            text.append('\n').append(LINE);
        }
        return text.toString();
    }

    @Test
    void measure() {
        DocumentText documents = new DocumentText(DocumentText.Limits.DEFAULT);
        for (int pages : new int[] {10, 100, 400}) {
            String[] texts = new String[pages];
            for (int i = 0; i < pages; i++) {
                texts[i] = page(i);
            }
            report("pdf", pages, Documents.pdf(texts), documents);
        }
        for (int paragraphs : new int[] {100, 1_000, 5_000}) {
            String[] texts = new String[paragraphs];
            for (int i = 0; i < paragraphs; i++) {
                texts[i] = "Paragraph " + i + ". " + LINE + " " + LINE;
            }
            report("docx", paragraphs, Documents.docx(texts), documents);
        }
    }

    private static void report(String kind, int units, byte[] file, DocumentText documents) {
        run(file, documents); // warm-up
        List<Long> nanos = new ArrayList<>();
        int chunks = 0;
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            chunks = run(file, documents);
            nanos.add(System.nanoTime() - start);
        }
        Collections.sort(nanos);
        double seconds = nanos.get(1) / 1e9;
        System.out.printf(Locale.ROOT, "BENCH %s units=%d bytes=%d chunks=%d median=%.3f s  %.2f MB/s  %.0f units/s"
                        + "  %.0f chunks/s%n", kind, units, file.length, chunks, seconds, file.length / 1e6 / seconds,
                units / seconds, chunks / seconds);
    }

    private static int run(byte[] file, DocumentText documents) {
        DocumentText.Extracted extracted = documents.extract(file);
        return Chunking.prose(extracted.text(), Locale.ROOT).size();
    }
}
