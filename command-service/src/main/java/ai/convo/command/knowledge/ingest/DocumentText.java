package ai.convo.command.knowledge.ingest;

import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.SourceType;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.exception.ZeroByteFileException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.apache.tika.sax.BodyContentHandler;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

/**
 * A document's type (from its content, never its name) and its text, with Apache Tika's parser modules (pdf,
 * microsoft, html, text), within limits: bytes, pages, extracted characters, time, parses at a time, and the memory
 * PDFBox may hold. Zip bombs are caught by Tika's SecureContentHandler (output per input byte) and POI's inflate-ratio
 * check. Every failure is a {@link Refused} with a reason a user can read; nothing here throws anything else.
 */
public final class DocumentText {

    /**
     * What the limits are. {@code maxChars}: more text than a source's chunks can hold is refused, not cut.
     * {@code parallel}: parses at a time in the process, never more than one per organisation.
     */
    public record Limits(long maxBytes, int maxPages, int maxChars, Duration timeout, long pdfMemoryBytes,
                         int parallel) {
        public static final Limits DEFAULT = new Limits(10L * 1024 * 1024, 2_000,
                KnowledgeRules.MAX_CHUNKS_PER_SOURCE * KnowledgeRules.MAX_CHUNK_TEXT_LENGTH, Duration.ofSeconds(60),
                64L * 1024 * 1024, 2);

        public Limits(long maxBytes, int maxPages, int maxChars, Duration timeout, long pdfMemoryBytes) {
            this(maxBytes, maxPages, maxChars, timeout, pdfMemoryBytes, 1);
        }
    }

    public record Extracted(SourceType type, String mediaType, String text, int pages) {
    }

    public static final class Refused extends RuntimeException {
        Refused(String reason) {
            super(reason);
        }

        Refused(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    /** Media types (without parameters) this server takes, and the source type each becomes. */
    private static final Map<String, SourceType> TYPES = Map.ofEntries(
            Map.entry("application/pdf", SourceType.PDF),
            Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", SourceType.DOCX),
            Map.entry("application/vnd.openxmlformats-officedocument.presentationml.presentation", SourceType.PPTX),
            Map.entry("text/plain", SourceType.TXT),
            // a web page's text is plain text to a source; its markup is dropped
            Map.entry("text/html", SourceType.TXT),
            Map.entry("application/xhtml+xml", SourceType.TXT),
            Map.entry("image/jpeg", SourceType.JPEG),
            Map.entry("image/png", SourceType.PNG),
            Map.entry("image/bmp", SourceType.BMP),
            Map.entry("image/x-ms-bmp", SourceType.BMP),
            Map.entry("image/heif", SourceType.HEIF),
            Map.entry("image/heic", SourceType.HEIF),
            Map.entry("image/tiff", SourceType.TIFF));

    public static final String ACCEPTED = "PDF, DOCX, PPTX, plain text, CTXT, HTML, and JPEG/PNG/BMP/HEIF/TIFF images";

    private final Limits limits;
    private final AutoDetectParser parser = new AutoDetectParser();
    /**
     * One parse at a time per organisation, so one organisation's large documents take one core, never both, and
     * another organisation's document does not queue behind them.
     */
    private final ExtractionGate parses;

    public DocumentText(Limits limits) {
        this.limits = limits;
        this.parses = new ExtractionGate(limits.parallel());
    }

    public Limits limits() {
        return limits;
    }

    /** The media type Tika detects from the bytes alone (no name is given to it). */
    public MediaType detect(byte[] content) {
        try (TikaInputStream in = TikaInputStream.get(content)) {
            return parser.getDetector().detect(in, new Metadata()).getBaseType();
        } catch (IOException e) {
            return MediaType.OCTET_STREAM;
        }
    }

    /** The source type of content of that media type, if this server takes it; text may still turn out CTXT. */
    public static Optional<SourceType> typeOf(MediaType mediaType, byte[] content) {
        SourceType type = TYPES.get(mediaType.getBaseType().toString());
        if (type == SourceType.TXT && mediaType.getSubtype().equals("plain")
                && Chunking.isCtxt(new String(content, 0, Math.min(content.length, 4096),
                java.nio.charset.StandardCharsets.UTF_8))) {
            return Optional.of(SourceType.CTXT);
        }
        return Optional.ofNullable(type);
    }

    public Extracted extract(byte[] content) {
        return extract(content, "");
    }

    /** The text of {@code content}, read in {@code organisation}'s turn (see {@link ExtractionGate}). */
    public Extracted extract(byte[] content, String organisation) {
        if (content.length == 0) {
            throw new Refused("The file is empty.");
        }
        if (content.length > limits.maxBytes()) {
            throw new Refused("The file has " + content.length + " bytes; at most " + limits.maxBytes() + " are read.");
        }
        MediaType mediaType = detect(content);
        SourceType type = typeOf(mediaType, content).orElseThrow(() -> new Refused("The file's content is "
                + mediaType + ", which is not read here; accepted: " + ACCEPTED + "."));
        if (mediaType.getType().equals("image")) {
            throw new Refused("No text found: the file is an image (" + mediaType + "), and images are not read "
                    + "(no OCR).");
        }
        FutureTask<Extracted> parse = new FutureTask<>(() -> parse(content, mediaType, type));
        try {
            if (!parses.enter(organisation, limits.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                throw new Refused("The text could not be extracted within " + limits.timeout().toSeconds()
                        + " s: other documents were being read; upload it again later.");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused("The extraction was interrupted (the service is stopping).", e);
        }
        // A thread of its own per parse: one that overruns its time is abandoned, never blocking the next.
        Thread worker = new Thread(() -> {
            try {
                parse.run();
            } finally {
                parses.leave(organisation);
            }
        }, "knowledge-extraction");
        worker.setDaemon(true);
        worker.start();
        try {
            return parse.get(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            parse.cancel(true);
            throw new Refused("The text could not be extracted within " + limits.timeout().toSeconds() + " s.");
        } catch (InterruptedException e) {
            parse.cancel(true);
            Thread.currentThread().interrupt();
            throw new Refused("The extraction was interrupted (the service is stopping).", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Refused refused ? refused
                    : new Refused("The file could not be read as " + mediaType + ".", e.getCause());
        }
    }

    private Extracted parse(byte[] content, MediaType mediaType, SourceType type) {
        BodyContentHandler body = new BodyContentHandler(limits.maxChars());
        PageCount pages = new PageCount(body, limits.maxPages());
        ParseContext context = new ParseContext();
        PDFParserConfig pdf = new PDFParserConfig();
        pdf.setMaxMainMemoryBytes(limits.pdfMemoryBytes());
        pdf.setExtractInlineImages(false);
        context.set(PDFParserConfig.class, pdf);
        Metadata metadata = new Metadata();
        try (TikaInputStream in = TikaInputStream.get(content)) {
            parser.parse(in, pages, metadata, context);
        } catch (OutOfMemoryError e) {
            throw new Refused("The file needs more memory to read than a document may take.");
        } catch (Exception e) {
            throw refusal(e, pages, mediaType);
        }
        String text = body.toString();
        if (text.isBlank()) {
            throw new Refused("No text found in the file (" + mediaType + ").");
        }
        return new Extracted(type, mediaType.toString(), text, pages.pages);
    }

    private Refused refusal(Exception e, PageCount pages, MediaType mediaType) {
        if (pages.overLimit) {
            return new Refused("The document has more than " + limits.maxPages() + " pages; at most "
                    + limits.maxPages() + " are read.");
        }
        if (WriteLimitReachedException.isWriteLimitReached(e)) {
            return new Refused("The document's text has more than " + limits.maxChars() + " characters, more than a "
                    + "source's " + KnowledgeRules.MAX_CHUNKS_PER_SOURCE + " chunks hold; split the document.");
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof EncryptedDocumentException
                    || cause instanceof org.apache.poi.EncryptedDocumentException
                    || cause instanceof org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException) {
                return new Refused("The file is encrypted (password protected); upload it without a password.", e);
            }
            String message = String.valueOf(cause.getMessage());
            if (cause.getClass().getSimpleName().equals("ZipBombException") || message.contains("Zip bomb")
                    || message.contains("zip bomb") || message.contains("Suspected zip bomb")) {
                return new Refused("The file expands far beyond its size (a zip bomb) and was not read.", e);
            }
            if (cause instanceof ZeroByteFileException) {
                return new Refused("The file is empty.", e);
            }
        }
        return new Refused("The file is not a readable " + mediaType + " (malformed or damaged): "
                + clip(String.valueOf(e.getMessage())), e);
    }

    private static String clip(String message) {
        return message.length() > 200 ? message.substring(0, 200) + "..." : message;
    }

    /** Counts pages (PDF) and slides (PPTX) as Tika marks them, and stops the parse past the limit. */
    private static final class PageCount extends ContentHandlerDecorator {
        private final int max;
        private int pages;
        private boolean overLimit;

        PageCount(ContentHandler handler, int max) {
            super(handler);
            this.max = max;
        }

        @Override
        public void startElement(String uri, String localName, String name, Attributes atts) throws SAXException {
            String css = atts.getValue("class");
            if ("div".equals(localName) && ("page".equals(css) || "slide-content".equals(css)) && ++pages > max) {
                overLimit = true;
                throw new SAXException("more than " + max + " pages");
            }
            super.startElement(uri, localName, name, atts);
        }
    }
}
