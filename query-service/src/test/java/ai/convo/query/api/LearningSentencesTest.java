package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** The client's indexLearningSentences and readLearningSentence: a 501 that says why, not an intent id misread. */
class LearningSentencesTest extends QueryTestBase {

    @Test
    void givenAnyFlow_whenLearningSentencesAreListedOrRead_then501ProblemNamingThem() {
        // given
        Caller caller = newOrganisation();
        String flowId = Ids.newId();
        for (String path : new String[] {"/v2.0/flows/" + flowId + "/intents/learningsentences?limit=10",
                "/v2.0/flows/" + flowId + "/intents/learningsentences/" + Ids.newId()}) {
            // when
            @SuppressWarnings("unchecked")
            Map<String, Object> problem = http.get().uri(path).header("X-API-Key", caller.apiKey()).exchange()
                    // then
                    .expectStatus().isEqualTo(501)
                    .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody(Map.class).returnResult().getResponseBody();
            assertThat((String) problem.get("detail")).contains("Learning sentences", "no conversations");
        }
        // still authenticated like every read
        http.get().uri("/v2.0/flows/{f}/intents/learningsentences", flowId).exchange().expectStatus().isUnauthorized();
        http.get().uri("/v2.0/flows/{f}/intents/learningsentences", "bad").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest();
    }
}
