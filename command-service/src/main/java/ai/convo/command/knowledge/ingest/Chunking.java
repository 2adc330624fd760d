package ai.convo.command.knowledge.ingest;

import ai.convo.contract.knowledge.KnowledgeRules;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text into chunks, in document order. The vendor's CTXT: a header of {@code `key: value`} lines (into every chunk's
 * data), then chunks separated by blank lines, each at most {@link KnowledgeRules#MAX_CHUNK_TEXT_LENGTH} characters or
 * the source fails. Other text: paragraphs (blank-line separated, their line breaks joined) merged up to that length,
 * a longer paragraph cut on sentence boundaries, a longer sentence on a space.
 */
public final class Chunking {

    /** A chunk to be: its text and data. */
    public record Draft(String text, Map<String, Object> data) {
    }

    /** The text cannot be chunked; the message says why, for {@code failReason}. */
    public static final class Refused extends RuntimeException {
        Refused(String reason) {
            super(reason);
        }
    }

    private static final Pattern HEADER_LINE = Pattern.compile("^`([^`:]+):\\s*([^`]*)`\\s*$");
    private static final Pattern BLANK_LINES = Pattern.compile("\\n[ \\t\\x0B\\f\\r]*\\n\\s*");
    private static final int MAX = KnowledgeRules.MAX_CHUNK_TEXT_LENGTH;

    private Chunking() {
    }

    /** Whether the text is CTXT: its first non-blank line is a {@code `key: value`} header line. */
    public static boolean isCtxt(String text) {
        for (String line : normalised(text).split("\n", 64)) {
            if (!line.isBlank()) {
                return HEADER_LINE.matcher(line.strip()).matches();
            }
        }
        return false;
    }

    public static List<Draft> ctxt(String text) {
        String[] lines = normalised(text).split("\n", -1);
        Map<String, Object> header = new LinkedHashMap<>();
        int body = 0;
        for (; body < lines.length; body++) {
            String line = lines[body].strip();
            if (line.isEmpty()) {
                continue;
            }
            Matcher pair = HEADER_LINE.matcher(line);
            if (!pair.matches()) {
                break;
            }
            header.put(pair.group(1).strip(), pair.group(2).strip());
        }
        String problem = KnowledgeRules.dataProblem(header);
        if (problem != null) {
            throw new Refused("The CTXT header is not valid chunk metadata: " + problem);
        }
        List<Draft> drafts = new ArrayList<>();
        String rest = String.join("\n", java.util.Arrays.asList(lines).subList(body, lines.length));
        for (String part : BLANK_LINES.split(rest)) {
            String chunk = part.strip();
            if (chunk.isEmpty()) {
                continue;
            }
            if (chunk.length() > MAX) {
                throw new Refused("Chunk too long: chunk " + (drafts.size() + 1) + " of the CTXT file has "
                        + chunk.length() + " characters; a chunk may have at most " + MAX + ".");
            }
            drafts.add(new Draft(chunk, header));
            requireCount(drafts.size());
        }
        return drafts;
    }

    public static List<Draft> prose(String text, Locale locale) {
        List<String> pieces = new ArrayList<>();
        for (String paragraph : BLANK_LINES.split(normalised(text))) {
            String joined = paragraph.strip().replaceAll("\\s*\\n\\s*", " ");
            if (joined.isEmpty()) {
                continue;
            }
            if (joined.length() <= MAX) {
                pieces.add(joined);
            } else {
                pieces.addAll(sentences(joined, locale));
            }
        }
        List<Draft> drafts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String piece : pieces) {
            String separator = current.isEmpty() ? "" : "\n\n";
            if (current.length() + separator.length() + piece.length() > MAX) {
                drafts.add(new Draft(current.toString(), Map.of()));
                requireCount(drafts.size());
                current.setLength(0);
                separator = "";
            }
            current.append(separator).append(piece);
        }
        if (!current.isEmpty()) {
            drafts.add(new Draft(current.toString(), Map.of()));
            requireCount(drafts.size());
        }
        return drafts;
    }

    /** A paragraph longer than a chunk: its sentences merged up to a chunk, a longer sentence cut on a space. */
    private static List<String> sentences(String paragraph, Locale locale) {
        List<String> out = new ArrayList<>();
        BreakIterator boundaries = BreakIterator.getSentenceInstance(locale);
        boundaries.setText(paragraph);
        StringBuilder current = new StringBuilder();
        for (int start = boundaries.first(), end = boundaries.next(); end != BreakIterator.DONE;
             start = end, end = boundaries.next()) {
            String sentence = paragraph.substring(start, end);
            while (sentence.length() > MAX) {
                int cut = sentence.lastIndexOf(' ', MAX);
                cut = cut <= 0 ? MAX : cut;
                flush(out, current);
                out.add(sentence.substring(0, cut).strip());
                sentence = sentence.substring(cut);
            }
            if (current.length() + sentence.length() > MAX) {
                flush(out, current);
            }
            current.append(sentence);
        }
        flush(out, current);
        return out;
    }

    private static void flush(List<String> out, StringBuilder current) {
        String text = current.toString().strip();
        if (!text.isEmpty()) {
            out.add(text);
        }
        current.setLength(0);
    }

    private static void requireCount(int chunks) {
        if (chunks > KnowledgeRules.MAX_CHUNKS_PER_SOURCE) {
            throw new Refused("The text makes more than " + KnowledgeRules.MAX_CHUNKS_PER_SOURCE + " chunks of at most "
                    + MAX + " characters, the most a source may have; split the document.");
        }
    }

    private static String normalised(String text) {
        return text.replace("\r\n", "\n").replace('\r', '\n').replace('\u000C', '\n');
    }
}
