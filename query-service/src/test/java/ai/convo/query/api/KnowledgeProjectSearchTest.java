package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Search over all of a project's stores ({@code GET /v2.0/knowledgestores/search?projectId=}): every store of the
 * project searched, one group per language, nothing of another project or organisation; 400s and 404s.
 */
class KnowledgeProjectSearchTest extends QueryTestBase {

    private Caller caller;
    private String projectId;
    private String plantedId;
    private String germanId;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        projectId = project(caller, "Search", 1000).id();
        String faq = store(caller, projectId, "en-US");
        String shop = store(caller, projectId, "en-US");
        String german = store(caller, projectId, "de-DE");
        chunk(caller, projectId, faq, "Our shop opens at nine and closes at five on weekdays.");
        plantedId = chunk(caller, projectId, shop, "Refunds are paid within ten days after the returned item arrives.");
        germanId = chunk(caller, projectId, german, "Erstattungen werden innerhalb von zehn Tagen gezahlt.");
        // the same words in another project of the organisation, and in another organisation
        String otherProject = project(caller, "Other", 1000).id();
        chunk(caller, otherProject, store(caller, otherProject, "en-US"), "Refunds are paid at once, refund paid.");
        Caller stranger = newOrganisation();
        String strangers = project(stranger, "Theirs", 1000).id();
        chunk(stranger, strangers, store(stranger, strangers, "en-US"), "Refunds are paid at once, refund paid.");
    }

    private String store(Caller who, String project, String language) {
        String id = Ids.newId();
        position = append(id, new KnowledgeStoreCreatedEvent(id, project, who.organisationId(),
                UUID.randomUUID().toString(), "Store " + language, "", language, who.userId(), 1000));
        return id;
    }

    /** A chunk in a ready source of its own in the store. */
    private String chunk(Caller who, String project, String store, String text) {
        String source = Ids.newId();
        append(source, new KnowledgeSourceCreatedEvent(source, store, project, who.organisationId(),
                UUID.randomUUID().toString(), "Source", "", "manual", "ready", 0, List.of(), Map.of(), who.userId(),
                1000));
        String id = Ids.newId();
        position = append(source, new KnowledgeChunkCreatedEvent(id, source, store, project, who.organisationId(),
                UUID.randomUUID().toString(), 0, text, false, Map.of(), 1, who.userId(), 1000));
        return id;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(Caller who, String query, int status) {
        return http.get().uri("/v2.0/knowledgestores/search" + query).header("X-API-Key", who.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private static List<String> chunkIds(Map<String, Object> answer) {
        return ((List<Map<String, Object>>) answer.get("items")).stream()
                .map(item -> (String) ((Map<String, Object>) item.get("knowledgeChunk")).get("_id")).toList();
    }

    @Test
    void givenAProjectWithStoresOfTwoLanguages_whenSearched_thenItsStoresOnlyInAGroupPerLanguage() {
        // when
        Map<String, Object> answer = get(caller, "?projectId=" + projectId + "&query=refund paid", 200);
        // then: the planted answer first; nothing of the other project or organisation (the same words)
        assertThat(chunkIds(answer)).first().isEqualTo(plantedId);
        assertThat(chunkIds(answer)).hasSizeLessThanOrEqualTo(3);
        assertThat(answer).containsEntry("projectId", projectId).containsEntry("searched", 3);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> groups = (List<Map<String, Object>>) answer.get("groups");
        assertThat(groups)
                .extracting(g -> g.get("language") + "/" + g.get("method") + "/" + g.get("searched"))
                .containsExactly("de-DE/bm25/1", "en-US/hybrid/2");
        // and the German store's chunk by its own analyser
        assertThat(chunkIds(get(caller, "?projectId=" + projectId + "&query=Erstattung", 200))).containsExactly(germanId);
    }

    @Test
    void givenAnotherOrganisationsProject_whenSearched_then404AsForAMissingProject() {
        Caller other = newOrganisation();
        assertThat((String) get(other, "?projectId=" + projectId + "&query=refund", 404).get("detail"))
                .contains("Project " + projectId);
    }

    @Test
    void givenAMemberOfAnotherProjectOfTheOrganisation_whenTheyPass_thenA404AndTheProjectsMemberReadsIt() {
        // given
        Caller member = colleague(caller, "MEMBER");
        Caller outsider = colleague(caller, "MEMBER");
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                + "VALUES (?, ?, ?, '{basic}', ?, 0)", projectId, member.userId(), caller.organisationId(),
                caller.userId());
        // when / then
        assertThat(chunkIds(get(member, "?projectId=" + projectId + "&query=refund paid", 200))).first()
                .isEqualTo(plantedId);
        get(outsider, "?projectId=" + projectId + "&query=refund paid", 404);
        assertThat((String) get(outsider, "?query=refund", 400).get("detail")).contains("projectId is required");
    }

    @Test
    void givenAProjectWithoutStores_whenSearched_thenNoGroupAndNoItems() {
        Project created = project(caller, "Empty", 1000);
        String empty = created.id();
        position = created.position();
        Map<String, Object> answer = get(caller, "?projectId=" + empty + "&query=refund", 200);
        assertThat(answer).containsEntry("groups", List.of()).containsEntry("items", List.of());
    }

    @Test
    void givenNoOrAMalformedProjectOrNoQuery_whenSearched_then400NamingTheParameter() {
        assertThat((String) get(caller, "?query=refund", 400).get("detail")).contains("projectId is required");
        assertThat((String) get(caller, "?projectId=nope&query=refund", 400).get("detail"))
                .contains("projectId must be 24 characters");
        assertThat((String) get(caller, "?projectId=" + projectId, 400).get("detail")).contains("query is required");
    }
}
