package ai.convo.command.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.contract.knowledge.SourceType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Real documents through Tika's parser modules: the type from the content, the text, and every refusal's reason. */
class DocumentTextTest {

    private final DocumentText documents = new DocumentText(DocumentText.Limits.DEFAULT);

    @Test
    void givenAPdfDocxHtmlTextAndCtxt_whenExtracted_thenTheTypeComesFromTheContentAndTheTextIsThere() {
        // given / when
        DocumentText.Extracted pdf = documents.extract(Documents.pdf("Opening hours: nine to five.", "Page two."));
        DocumentText.Extracted docx = documents.extract(Documents.docx("Refunds take ten days.", "Second paragraph."));
        DocumentText.Extracted html = documents.extract(Documents.html("FAQ", "Shipping is free.", "Returns too."));
        DocumentText.Extracted text = documents.extract(Documents.text("Plain words.\n\nMore words."));
        DocumentText.Extracted ctxt = documents.extract(Documents.text("`title: Hours`\n\nWe open at nine."));
        // then
        assertThat(pdf.type()).isEqualTo(SourceType.PDF);
        assertThat(pdf.pages()).isEqualTo(2);
        assertThat(pdf.text()).contains("Opening hours: nine to five.", "Page two.");
        assertThat(docx.type()).isEqualTo(SourceType.DOCX);
        assertThat(docx.text()).contains("Refunds take ten days.", "Second paragraph.");
        assertThat(html.type()).isEqualTo(SourceType.TXT);
        assertThat(html.mediaType()).isEqualTo("text/html");
        assertThat(html.text()).contains("Shipping is free.").doesNotContain("not text", "<p>");
        assertThat(text.type()).isEqualTo(SourceType.TXT);
        assertThat(ctxt.type()).isEqualTo(SourceType.CTXT);
    }

    @Test
    void givenAnEncryptedPdf_whenExtracted_thenRefusedAsEncrypted() {
        assertThatThrownBy(() -> documents.extract(Documents.encryptedPdf("Secret.")))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("encrypted");
    }

    @Test
    void givenAMalformedPdf_whenExtracted_thenRefusedAsMalformed() {
        assertThatThrownBy(() -> documents.extract(Documents.malformedPdf()))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("application/pdf");
    }

    @Test
    void givenAZipBombDocx_whenExtracted_thenRefusedAsAZipBombWithoutInflatingIt() {
        // given: 20 MB of text in a DOCX of a few tens of kilobytes
        byte[] bomb = Documents.zipBombDocx(20);
        assertThat(bomb.length).isLessThan(200_000);
        // when / then
        assertThatThrownBy(() -> documents.extract(bomb))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("zip bomb");
    }

    @Test
    void givenAnImage_whenExtracted_thenNoTextFound() {
        assertThatThrownBy(() -> documents.extract(Documents.png()))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("No text found");
    }

    @Test
    void givenLimits_whenADocumentExceedsThem_thenRefusedNamingTheLimit() {
        DocumentText small = new DocumentText(new DocumentText.Limits(1_000_000, 2, 50, Duration.ofSeconds(30),
                16L * 1024 * 1024));
        assertThatThrownBy(() -> small.extract(Documents.pdf("one", "two", "three")))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("more than 2 pages");
        assertThatThrownBy(() -> small.extract(Documents.text("x".repeat(80))))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("more than 50 characters");
        assertThatThrownBy(() -> small.extract(new byte[1_000_001]))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("at most 1000000");
        assertThatThrownBy(() -> small.extract(new byte[] {0x50, 0x4b, 0x03, 0x04, 0, 0}))
                .isInstanceOf(DocumentText.Refused.class).hasMessageContaining("not read here");
    }
}
