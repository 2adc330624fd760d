package ai.convo.command.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.http.HttpConfiguration;
import ai.convo.http.problem.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IntentFileTest {

    private static List<IntentFile.Entry> read(String text) {
        return IntentFile.read(text.getBytes(StandardCharsets.UTF_8));
    }

    private static IntentFile.Entry whole(String name, String parent, Object childFeatures, List<String> sentences) {
        return new IntentFile.Entry(name, "d", List.of("t"), true, false, true, parent, "c", List.of("ok?"), "which?",
                List.of("r"), Map.of("k", List.of(1, "x")), childFeatures, true, "children", sentences);
    }

    @Test
    void givenValuesCsvMustQuote_whenWrittenAndReadBack_thenTheSameValues() {
        List<String> values = List.of("plain", "a, b", "say \"hi\"", "two\nlines", "semi;colon", "tab\there",
                " padded ", "ünïcödé");
        byte[] csv = IntentFile.write("csv", List.of(IntentFile.Entry.csv("N, \"quoted\"", values, List.of("c"),
                List.of("r"))));
        List<IntentFile.Entry> back = IntentFile.read(csv);
        assertThat(back).hasSize(1);
        assertThat(back.get(0).name()).isEqualTo("N, \"quoted\"");
        assertThat(back.get(0).exampleSentences()).isEqualTo(values);
        assertThat(back.get(0).confirmationSentences()).containsExactly("c");
        assertThat(back.get(0).rules()).containsExactly("r");
        assertThat(IntentFile.write("csv", back)).isEqualTo(csv);
    }

    @Test
    void givenWholeIntents_whenWrittenAsJsonAndReadBack_thenEveryFieldIsKept() {
        List<IntentFile.Entry> entries = List.of(whole("A", null, false, List.of("one")),
                whole("B", "A", List.of("A"), List.of("two", "three")));
        byte[] json = IntentFile.write("json", entries);
        assertThat(IntentFile.read(json)).isEqualTo(entries);
        assertThat(IntentFile.write("json", IntentFile.read(json))).isEqualTo(json);
    }

    @Test
    void givenSemicolonOrTabCsv_whenRead_thenTheDelimiterIsTheFirstRowsAndUnquotedDelimitersStayInTheValue() {
        assertThat(read("A;exampleSentence;x, y\nA;rules;r").get(0).exampleSentences()).containsExactly("x, y");
        assertThat(read("A\texampleSentence\tx\n").get(0).exampleSentences()).containsExactly("x");
        assertThat(read("A,exampleSentence,x, y and z\n").get(0).exampleSentences()).containsExactly("x, y and z");
    }

    @Test
    void givenBadFiles_whenRead_thenA400NamingTheRowOrIntentAndWhatIsAllowed() {
        assertThatThrownBy(() -> read("")).isInstanceOf(ApiProblem.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> read("A,exampleSentence\n")).hasMessageContaining("Row 1").hasMessageContaining("three");
        assertThatThrownBy(() -> read("A,exampleSentence,x\nB,slots,y\n")).hasMessageContaining("Row 2")
                .hasMessageContaining("exampleSentence, confirmationSentence, rules");
        assertThatThrownBy(() -> read("A,exampleSentence,   \n")).hasMessageContaining("not be blank");
        assertThatThrownBy(() -> read("A,exampleSentence,\"x\n")).hasMessageContaining("line 1")
                .hasMessageContaining("never closed");
        assertThatThrownBy(() -> IntentFile.read(new byte[] {(byte) 0xff, (byte) 0xfe, 0x41}))
                .hasMessageContaining("UTF-8");
        assertThatThrownBy(() -> read("[{\"name\":\"A\"},{\"name\":\"a\"}]")).hasMessageContaining("twice");
        assertThatThrownBy(() -> read("[{\"name\":\"A\",\"parentIntentName\":\"a\"}]")).hasMessageContaining("itself");
        assertThatThrownBy(() -> read("[{\"name\":\"A\",\"tags\":\"t\"}]")).hasMessageContaining("Intent 0 ('A')")
                .hasMessageContaining("tags must be an array");
        assertThatThrownBy(() -> read("[{\"name\":\"A\",\"childFeatures\":[1]}]")).hasMessageContaining("childFeatures");
        assertThatThrownBy(() -> read("[{\"name\":\"A\",\"exampleSentences\":[\"\"]}]"))
                .hasMessageContaining("exampleSentences");
        assertThatThrownBy(() -> read("[1]")).hasMessageContaining("Intent 0").hasMessageContaining("JSON object");
        assertThatThrownBy(() -> read("[{\"name\":")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> read("[{}]")).hasMessageContaining("name");
    }

    /** A file of exactly the largest upload: {@code head}, then {@code unit} repeated, then {@code tail}. */
    private static String largest(String head, String unit, String tail) {
        int room = HttpConfiguration.MAX_BODY_BYTES - head.length() - tail.length();
        String text = head + unit.repeat(room / unit.length()) + tail;
        return text + " ".repeat(HttpConfiguration.MAX_BODY_BYTES - text.length());
    }

    @Test
    void givenFilesOfTheLargestUploadMadeOfQuotes_whenRead_thenEachIsRefusedForWhatItHolds() {
        // given: values of quotes (each quote used to copy the value read so far) and a JSON array of empty intents
        String letterThenQuotes = largest("a", "\"", "");
        String rowOfQuotes = largest("A,exampleSentence,a", "\"", "");
        String quotedNeverClosed = largest("A,exampleSentence,\"", "\"\"", "");
        String jsonOfEscapedQuotes = largest("[{\"name\":\"A\",\"exampleSentences\":[\"", "\\\"", "\"]}]");
        String jsonOfEmptyIntents = largest("[", "{},", "{}]");
        assertThat(List.of(letterThenQuotes, rowOfQuotes, quotedNeverClosed, jsonOfEscapedQuotes, jsonOfEmptyIntents))
                .allSatisfy(file -> assertThat(file.getBytes(StandardCharsets.UTF_8))
                        .hasSize(HttpConfiguration.MAX_BODY_BYTES));
        // when / then
        assertThatThrownBy(() -> read(letterThenQuotes)).isInstanceOf(ApiProblem.class)
                .hasMessageContaining("Row 1 of the file has 1 column(s)");
        assertThatThrownBy(() -> read(rowOfQuotes)).isInstanceOf(ApiProblem.class)
                .hasMessageContaining("Row 1 of the file has a value of " + (rowOfQuotes.strip().length() - 18)
                        + " characters").hasMessageContaining("1 to " + IntentController.TEXT_MAX);
        assertThatThrownBy(() -> read(quotedNeverClosed)).isInstanceOf(ApiProblem.class)
                .hasMessageContaining("starts on line 1 of the file is never closed");
        assertThatThrownBy(() -> read(jsonOfEscapedQuotes)).isInstanceOf(ApiProblem.class)
                .hasMessageContaining("Intent 0 ('A')").hasMessageContaining("exampleSentences");
        assertThatThrownBy(() -> read(jsonOfEmptyIntents)).isInstanceOf(ApiProblem.class)
                .hasMessageContaining("The file holds " + (jsonOfEmptyIntents.strip().length() + 1) / 3 + " intents")
                .hasMessageContaining("at most " + IntentFile.MAX_INTENTS);
    }

    @Test
    void givenQuotesAfterWhiteSpaceOrAClosedQuote_whenRead_thenQuotingStartsOnlyWhereTheFieldIsStillBlank() {
        // a quote opens a quoted value only while the field holds nothing but white space
        assertThat(read("A,exampleSentence,  \"x, y\"\n").get(0).exampleSentences()).containsExactly("x, y");
        assertThat(read("A,exampleSentence,x\"y\"\n").get(0).exampleSentences()).containsExactly("x\"y\"");
        assertThat(read("A,exampleSentence,\" \" \"x, y\"\n").get(0).exampleSentences()).containsExactly("x, y");
        assertThat(read("A,exampleSentence,\"\"\"\"x\"\n").get(0).exampleSentences()).containsExactly("\"x\"");
    }
}
