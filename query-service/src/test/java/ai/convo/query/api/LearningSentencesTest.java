package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.flow.FlowCreatedEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * The client's indexLearningSentences and readLearningSentence: this server runs no conversations, so a flow has no
 * learning sentences (an empty page) and no id names one (a 404 that says why).
 */
class LearningSentencesTest extends IntentQuerySupport {

    @Test
    void givenAFlowOfTheCaller_whenItsLearningSentencesAreListed_thenAnEmptyPageInTheListEnvelope() {
        // given
        Caller caller = newOrganisation();
        Project project = project(caller, "learning", 1_000);
        String flowId = Ids.newId();
        long position = append(flowId, new FlowCreatedEvent(flowId, project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), "Main", "", caller.userId(), 1_000));
        String intentId = Ids.newId();
        position = intent(caller, project.id(), flowId, intentId, "Greet", null, 1_000);
        // when
        Map<String, Object> page = get("/v2.0/flows/" + flowId + "/intents/learningsentences?limit=10&intentId="
                + intentId + "&flowReferenceId=" + Ids.newId() + "&sort=sentence:asc", caller, position);
        // then
        assertThat(page).containsEntry("items", List.of()).containsEntry("total", 0)
                .containsEntry("nextCursor", null).containsEntry("previousCursor", null);
    }

    @Test
    void givenAnotherOrganisationsFlow_whenItsLearningSentencesAreListed_then404AsForAnAbsentFlow() {
        // given
        Caller owner = newOrganisation();
        Caller stranger = newOrganisation();
        Project project = project(owner, "owned", 1_000);
        String flowId = Ids.newId();
        long position = append(flowId, new FlowCreatedEvent(flowId, project.id(), owner.organisationId(),
                UUID.randomUUID().toString(), "Main", "", owner.userId(), 1_000));
        // when
        Map<String, Object> foreign = problem("/v2.0/flows/" + flowId + "/intents/learningsentences", stranger,
                position, 404);
        Map<String, Object> absent = problem("/v2.0/flows/" + Ids.newId() + "/intents/learningsentences", stranger,
                position, 404);
        // then: the same answer as for a flow that does not exist
        assertThat((String) foreign.get("detail")).isEqualTo("Flow " + flowId + " does not exist.");
        assertThat((String) absent.get("detail")).startsWith("Flow ").endsWith(" does not exist.");
    }

    @Test
    void givenBadParameters_whenListed_then400NamingEach() {
        // given
        Caller caller = newOrganisation();
        Project project = project(caller, "bad", 1_000);
        String flowId = Ids.newId();
        long position = append(flowId, new FlowCreatedEvent(flowId, project.id(), caller.organisationId(),
                UUID.randomUUID().toString(), "Main", "", caller.userId(), 1_000));
        String list = "/v2.0/flows/" + flowId + "/intents/learningsentences";
        // when / then
        assertThat(problem(list + "?limit=0", caller, position, 400).toString()).contains("limit");
        assertThat(problem(list + "?sort=name:asc", caller, position, 400).toString()).contains("sort");
        assertThat(problem(list + "?intentId=nope", caller, position, 400).toString()).contains("intentId");
        assertThat(problem(list + "?intentId=" + Ids.newId(), caller, position, 400).get("detail").toString())
                .contains("is not an intent of flow " + flowId);
        assertThat(problem(list + "?next=" + Ids.newId(), caller, position, 400).toString()).contains("next");
        http.get().uri("/v2.0/flows/{f}/intents/learningsentences", "bad").header("X-API-Key", caller.apiKey())
                .exchange().expectStatus().isBadRequest();
        // still authenticated like every read
        http.get().uri(list).exchange().expectStatus().isUnauthorized();
    }

    @Test
    void givenAnyLearningSentenceId_whenRead_then404SayingThereAreNoConversations() {
        // given
        Caller caller = newOrganisation();
        String id = Ids.newId();
        // when
        @SuppressWarnings("unchecked")
        Map<String, Object> problem = http.get().uri("/v2.0/flows/{f}/intents/learningsentences/{id}", Ids.newId(), id)
                .header("X-API-Key", caller.apiKey()).exchange()
                // then
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat((String) problem.get("detail")).contains("Learning sentence " + id + " does not exist",
                "no conversations");
        http.get().uri("/v2.0/flows/{f}/intents/learningsentences/{id}", Ids.newId(), "bad")
                .header("X-API-Key", caller.apiKey()).exchange().expectStatus().isBadRequest();
    }
}
