package ai.convo.http.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class StorableJsonTest {

    @Test
    void givenEscapedNulAndSurrogatesAtAnyDepth_whenChecked_thenEveryPathIsNamed() {
        // given: JSON escapes, the way a client sends them
        String json = "{\"name\":\"a\\u0000b\",\"data\":{\"k\":[\"ok\",\"\\ud800\"]},\"t\\udc00\":1,\"fine\":\"\\ud83d\\ude00\"}";
        // when
        var problems = StorableJson.problems(Renderer.JSON.readTree(json));
        // then
        assertThat(problems).containsOnlyKeys("name", "data.k[1]", "t?");
        assertThat((String) problems.get("name")).contains("U+0000 (NUL) at character 2");
        assertThat((String) problems.get("data.k[1]")).contains("unpaired surrogate U+D800");
        assertThat((String) problems.get("t?")).startsWith("is a field name that holds an unpaired surrogate");
    }

    @Test
    void givenABodyWithNul_whenParsed_thenOne400NamesTheFieldAndEchoesNoneOfIt() {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/x")
                .header("Content-Type", "application/json"));
        byte[] raw = "{\"name\":\"evil\\u0000\",\"description\":\"fine\"}".getBytes();
        assertThatThrownBy(() -> JsonBody.parse(exchange, raw, true))
                .isInstanceOfSatisfying(ApiProblem.class, problem -> {
                    assertThat(problem.status().value()).isEqualTo(400);
                    assertThat(problem.detail()).startsWith("The request body holds text that cannot be stored: name holds U+0000")
                            .doesNotContain("evil").doesNotContain("\u0000");
                    assertThat(problem.details()).containsOnlyKeys("name");
                });
    }

    @Test
    void givenStorableTextOfEveryPlane_whenParsed_thenAccepted() {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/x")
                .header("Content-Type", "application/json"));
        byte[] raw = "{\"name\":\"\\u0001\\uffff\\ud83d\\ude00\\udbff\\udfff \u00e9\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(JsonBody.parse(exchange, raw, true).requiredString("name", 1, 20)).hasSize(8);
    }
}
