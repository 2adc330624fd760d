package ai.convo.command.knowledge.ingest;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;

/** Real documents made in the test with the libraries that read them (PDFBox, POI, the JDK): no binary fixtures. */
public final class Documents {

    private Documents() {
    }

    /** A PDF with one page per text, each text a few lines. */
    public static byte[] pdf(String... pages) {
        return pdfWith(null, pages);
    }

    /** The same, encrypted with a user password (it cannot be opened without one). */
    public static byte[] encryptedPdf(String... pages) {
        return pdfWith("secret", pages);
    }

    private static byte[] pdfWith(String password, String... pages) {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (String text : pages) {
                PDPage page = new PDPage();
                document.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                    content.beginText();
                    content.setFont(font, 11);
                    content.setLeading(14);
                    content.newLineAtOffset(50, 740);
                    for (String line : text.split("\n")) {
                        content.showText(line);
                        content.newLine();
                    }
                    content.endText();
                }
            }
            if (password != null) {
                StandardProtectionPolicy policy = new StandardProtectionPolicy("owner-" + password, password,
                        new AccessPermission());
                policy.setEncryptionKeyLength(128);
                document.protect(policy);
            }
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first third of a real PDF: its header says PDF, its body is cut off. */
    public static byte[] malformedPdf() {
        byte[] whole = pdf("This document was cut short.");
        byte[] cut = Arrays.copyOf(whole, whole.length / 3);
        return cut;
    }

    public static byte[] docx(String... paragraphs) {
        try (XWPFDocument document = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (String text : paragraphs) {
                document.createParagraph().createRun().setText(text);
            }
            document.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A DOCX whose document.xml inflates ~1000-fold: a real DOCX with {@code megabytes} of spaces inside its text,
     * which deflate to almost nothing. Detected as DOCX by its content; reading it is what must be refused.
     */
    public static byte[] zipBombDocx(int megabytes) {
        byte[] real = docx("Bomb");
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(real));
             ByteArrayOutputStream bytes = new ByteArrayOutputStream();
             ZipOutputStream out = new ZipOutputStream(bytes)) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                byte[] content = in.readAllBytes();
                out.putNextEntry(new ZipEntry(entry.getName()));
                if (entry.getName().equals("word/document.xml")) {
                    String xml = new String(content, StandardCharsets.UTF_8);
                    int at = xml.indexOf("Bomb");
                    out.write(xml.substring(0, at).getBytes(StandardCharsets.UTF_8));
                    byte[] spaces = new byte[1024 * 1024];
                    Arrays.fill(spaces, (byte) ' ');
                    for (int i = 0; i < megabytes; i++) {
                        out.write(spaces);
                    }
                    out.write(xml.substring(at).getBytes(StandardCharsets.UTF_8));
                } else {
                    out.write(content);
                }
                out.closeEntry();
            }
            out.finish();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] html(String title, String... paragraphs) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
                .append(title).append("</title><script>var hidden = 'not text';</script></head><body>");
        for (String paragraph : paragraphs) {
            html.append("<p>").append(paragraph).append("</p>\n");
        }
        return html.append("</body></html>").toString().getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] png() {
        BufferedImage image = new BufferedImage(16, 16, BufferedImage.TYPE_INT_RGB);
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            ImageIO.write(image, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
