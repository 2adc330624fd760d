package ai.convo.contract.knowledge;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The type of a Knowledge Source. {@code manual} and {@code ctxt} hold their content inline and are ready at
 * once; documents, images and URLs go through the (simulated) ingestion step first.
 */
public enum SourceType {
    PDF("pdf"), TXT("txt"), DOCX("docx"), PPTX("pptx"), CTXT("ctxt"), URL("url"), MANUAL("manual"), JPEG("jpeg"),
    JPG("jpg"), PNG("png"), BMP("bmp"), HEIF("heif"), TIFF("tiff");

    private final String code;

    SourceType(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public boolean needsIngestion() {
        return this != MANUAL && this != CTXT;
    }

    /** The status a new source of this type starts in. */
    public SourceStatus initialStatus() {
        return needsIngestion() ? SourceStatus.INGESTING : SourceStatus.READY;
    }

    /** Chunks a new source has: those of its inline data, or none until its ingestion ends. */
    public int initialChunkCount(java.util.Map<String, ?> data) {
        return needsIngestion() ? 0 : KnowledgeRules.chunkCount(data);
    }

    public static Optional<SourceType> fromCode(String code) {
        return Arrays.stream(values()).filter(t -> t.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(SourceType::code).toList();
    }
}
