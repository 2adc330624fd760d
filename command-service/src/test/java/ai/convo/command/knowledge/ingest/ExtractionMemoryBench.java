package ai.convo.command.knowledge.ingest;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (its name ends in Bench): run with -Dtest=ExtractionMemoryBench. The process's resident
 * memory (VmRSS) and its peak (VmHWM, reset through /proc/self/clear_refs before each document) while the text of a
 * ~10 MB PDF (200 pages of text, each with an incompressible 50 KB image) and of a large DOCX (18,000 paragraphs,
 * ~1.9 million characters, near the limit) is extracted and chunked, each twice.
 */
class ExtractionMemoryBench {

    private static final String LINE = "The customer service desk opens at nine and closes at five on weekdays.";

    private static String status(String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        return "?";
    }

    private static void measure(String kind, byte[] file, DocumentText documents) throws Exception {
        System.gc();
        String before = status("VmRSS");
        Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        long start = System.nanoTime();
        DocumentText.Extracted extracted = documents.extract(file);
        int chunks = Chunking.prose(extracted.text(), Locale.ROOT).size();
        System.out.printf(Locale.ROOT, "BENCH %s bytes=%d pages=%d chars=%d chunks=%d %.2f s: VmRSS before=%s "
                        + "after=%s peak (VmHWM)=%s heap max=%d MB%n", kind, file.length, extracted.pages(),
                extracted.text().length(), chunks, (System.nanoTime() - start) / 1e9, before, status("VmRSS"),
                status("VmHWM"), Runtime.getRuntime().maxMemory() >> 20);
    }

    static byte[] pdfWithImages(int pages, int imageSide) throws Exception {
        Random random = new Random(1);
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int p = 0; p < pages; p++) {
                PDPage page = new PDPage();
                document.addPage(page);
                BufferedImage noise = new BufferedImage(imageSide, imageSide, BufferedImage.TYPE_INT_RGB);
                for (int x = 0; x < imageSide; x++) {
                    for (int y = 0; y < imageSide; y++) {
                        noise.setRGB(x, y, random.nextInt());
                    }
                }
                PDImageXObject image = LosslessFactory.createFromImage(document, noise);
                try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                    content.drawImage(image, 50, 400, 200, 200);
                    content.beginText();
                    content.setFont(font, 11);
                    content.setLeading(14);
                    content.newLineAtOffset(50, 740);
                    for (int l = 0; l < 20; l++) {
                        content.showText("Page " + p + ". " + LINE);
                        content.newLine();
                    }
                    content.endText();
                }
            }
            document.save(out);
            return out.toByteArray();
        }
    }

    @Test
    void measure() throws Exception {
        DocumentText documents = new DocumentText(DocumentText.Limits.DEFAULT);
        documents.extract(Documents.pdf("warm up")); // classes loaded, fonts mapped
        System.out.println("BENCH idle VmRSS=" + status("VmRSS"));
        byte[] pdf = pdfWithImages(200, 128);
        String[] paragraphs = new String[18_000];
        for (int i = 0; i < paragraphs.length; i++) {
            paragraphs[i] = "Paragraph " + i + ". " + LINE + " " + LINE.substring(0, 20);
        }
        byte[] docx = Documents.docx(paragraphs);
        for (int run = 0; run < 2; run++) {
            measure("pdf", pdf, documents);
            measure("docx", docx, documents);
        }
    }
}
