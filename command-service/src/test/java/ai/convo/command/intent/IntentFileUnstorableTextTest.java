package ai.convo.command.intent;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.http.problem.ApiProblem;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An intent file is client text like a body: what the database cannot store is refused, naming where. */
class IntentFileUnstorableTextTest {

    @Test
    void givenACsvWithNul_whenRead_thenRefusedNamingTheLine() {
        byte[] csv = "Greeting,exampleSentence,hello\nBye,exampleSentence,see\u0000you\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> IntentFile.read(csv)).isInstanceOfSatisfying(ApiProblem.class, problem ->
                org.assertj.core.api.Assertions.assertThat(problem.detail())
                        .startsWith("Line 2 of the file holds U+0000 (NUL) at character 24").doesNotContain("\u0000"));
    }

    @Test
    void givenAJsonFileWithEscapedNulOrSurrogate_whenRead_thenRefusedNamingTheIntentAndField() {
        byte[] nul = "[{\"name\":\"Fine\"},{\"name\":\"Bad\\u0000\"}]".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> IntentFile.read(nul)).isInstanceOfSatisfying(ApiProblem.class, problem ->
                org.assertj.core.api.Assertions.assertThat(problem.detail())
                        .startsWith("The file holds text that cannot be stored: intent [1].name holds U+0000"));
        byte[] surrogate = "[{\"name\":\"Fine\",\"exampleSentences\":[\"a\\udc00\"]}]".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> IntentFile.read(surrogate)).isInstanceOfSatisfying(ApiProblem.class, problem ->
                org.assertj.core.api.Assertions.assertThat(problem.detail())
                        .contains("intent [0].exampleSentences[0] holds an unpaired surrogate U+DC00"));
    }
}
