package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Search within a store: BM25 with the store's language analyser over the chunks of its ready sources, fused with the
 * chunks' embeddings once the background worker has them; the planted answer first with the terms it matched, or by
 * meaning alone for a paraphrase; disabled chunks and sources that are not ready left out; BM25 alone for a
 * non-English store; tenancy; 400s.
 */
class KnowledgeSearchTest extends QueryTestBase {

    private Caller caller;
    private String projectId;
    private String storeId;
    private String readyId;
    private String plantedId;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        projectId = project(caller, "Search", 1000).id();
        storeId = Ids.newId();
        append(storeId, new KnowledgeStoreCreatedEvent(storeId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "FAQ", "", "en-US", caller.userId(), 1000));
        readyId = source("ready");
        String ingestingId = source("ingesting");
        List<String> filler = List.of("Our shop opens at nine and closes at five on weekdays.",
                "Parking is free for customers in the garage behind the shop.",
                "Gift cards can be bought at the counter and online.",
                "Orders ship within two days; tracking numbers arrive by e-mail.");
        int order = 0;
        for (String text : filler) {
            chunk(readyId, order++, text, false);
        }
        plantedId = chunk(readyId, order++, "Refunds are paid within ten days after the returned item arrives.", false);
        chunk(readyId, order, "Refunds refunded refunding: a disabled chunk about refunds.", true);
        chunk(ingestingId, 0, "Refunds of a source still being ingested.", false);
    }

    private String source(String status) {
        String id = Ids.newId();
        append(id, new KnowledgeSourceCreatedEvent(id, storeId, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "Source " + status, "", "manual", status, 0, List.of(), Map.of(),
                caller.userId(), 1000));
        return id;
    }

    private String chunk(String sourceId, int order, String text, boolean disabled) {
        String id = Ids.newId();
        position = append(sourceId, new KnowledgeChunkCreatedEvent(id, sourceId, storeId, projectId,
                caller.organisationId(), UUID.randomUUID().toString(), order, text, disabled, Map.of(), order + 1,
                caller.userId(), 1000));
        return id;
    }

    private String search(String query) {
        return "/v2.0/knowledgestores/" + storeId + "/search?query=" + query;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(Caller who, String uri, int status) {
        return http.get().uri(uri).header("X-API-Key", who.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange()
                .expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> items(Map<String, Object> answer) {
        return (List<Map<String, Object>>) answer.get("items");
    }

    @SuppressWarnings("unchecked")
    private static String chunkId(Map<String, Object> item) {
        return (String) ((Map<String, Object>) item.get("knowledgeChunk")).get("_id");
    }

    @Test
    void givenAPlantedAnswer_whenSearchedInOtherWords_thenItComesFirstWithTheTermsItMatched() {
        // when: other words than the chunk's ("refund" for "Refunds": the English analyser's stem)
        Map<String, Object> answer = get(caller, search("how long until my refund is paid back"), 200);
        // then
        assertThat(answer).containsEntry("method", "hybrid").containsEntry("language", "en-US")
                .containsEntry("analyser", "EnglishAnalyzer").containsEntry("searched", 5); // the ready source's enabled chunks
        List<Map<String, Object>> items = items(answer);
        assertThat(items).isNotEmpty();
        assertThat(chunkId(items.get(0))).isEqualTo(plantedId);
        assertThat((List<String>) items.get(0).get("matchedTerms")).contains("refund", "paid");
        assertThat((Double) items.get(0).get("score")).isPositive();
        // disabled chunks and sources that are not ready are not searched
        assertThat(items).allSatisfy(item -> assertThat((String) ((Map<String, Object>) item.get("knowledgeChunk"))
                .get("sourceReference")).isEqualTo(readyId));
        assertThat(items).extracting(item -> ((Map<String, Object>) item.get("knowledgeChunk")).get("disabled"))
                .containsOnly(false);
    }

    /** Searches until every searched chunk has its embedding (the background worker's), at most 60 s. */
    private Map<String, Object> searchOnceEmbedded(String uri) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Map<String, Object> answer = get(caller, uri, 200);
        while (!answer.get("embedded").equals(answer.get("searched")) && System.nanoTime() < deadline) {
            answer = get(caller, uri, 200);
        }
        assertThat(answer.get("embedded")).as("embedded chunks").isEqualTo(answer.get("searched"));
        return answer;
    }

    @Test
    void givenEmbeddedChunks_whenAParaphraseWithNoSharedWordIsSearched_thenThePlantedAnswerComesFirstByMeaning() {
        // when: no word of the planted chunk's (nor its stems)
        Map<String, Object> answer = searchOnceEmbedded(search("how soon do I get my money back"));
        // then
        assertThat(answer).containsEntry("method", "hybrid").containsEntry("model", "all-MiniLM-L6-v2-q")
                .containsEntry("embedded", 5);
        Map<String, Object> first = items(answer).get(0);
        assertThat(chunkId(first)).isEqualTo(plantedId);
        assertThat(first).containsEntry("matchedTerms", List.of()).containsEntry("bm25", null)
                .containsEntry("vectorRank", 1);
        assertThat((Double) first.get("similarity")).isGreaterThan(0.4);
    }

    @Test
    void givenAGermanStore_whenSearched_thenBm25AloneAndTheAnswerSaysSo() {
        // given
        String german = Ids.newId();
        position = append(german, new KnowledgeStoreCreatedEvent(german, projectId, caller.organisationId(),
                UUID.randomUUID().toString(), "FAQ", "", "de-DE", caller.userId(), 1000));
        // when
        Map<String, Object> answer = get(caller, "/v2.0/knowledgestores/" + german + "/search?query=Erstattung", 200);
        // then
        assertThat(answer).containsEntry("method", "bm25").containsEntry("embedded", 0)
                .containsEntry("analyser", "GermanAnalyzer");
        assertThat((String) answer.get("note")).contains("BM25 only", "English");
    }

    @Test
    void givenAQueryOfStopWordsOnlyOrALimit_whenSearched_thenNothingOrAtMostTheLimit() {
        assertThat(items(get(caller, search("the and of"), 200))).isEmpty();
        assertThat(items(get(caller, search("shop parking refunds&limit=1"), 200))).hasSize(1);
    }

    @Test
    void givenAnotherOrganisation_whenItSearchesTheStore_then404AsForAMissingStore() {
        Caller other = newOrganisation();
        assertThat((String) get(other, search("refund"), 404).get("detail")).contains("Knowledge store " + storeId);
    }

    @Test
    void givenNoQueryOrABadLimit_whenSearched_then400NamingTheParameter() {
        assertThat((String) get(caller, "/v2.0/knowledgestores/" + storeId + "/search", 400).get("detail"))
                .contains("query is required");
        assertThat((String) get(caller, search("refund&limit=0"), 400).get("detail")).contains("limit must be");
        assertThat((String) get(caller, search("refund&limit=x"), 400).get("detail")).contains("limit must be");
        assertThat((String) get(caller, search("x".repeat(1001)), 400).get("detail")).contains("1 to 1000");
    }

    @Test
    void givenASearchedStore_whenTheAnswerIsDeletedAndABetterChunkAdded_thenTheNextSearchSeesBoth() {
        // given: searched once (its index is kept)
        assertThat(chunkId(items(get(caller, search("refund paid"), 200)).get(0))).isEqualTo(plantedId);
        // when
        position = append(readyId, new KnowledgeChunkDeletedEvent(plantedId, readyId, storeId, projectId,
                caller.organisationId(), 5, caller.userId(), 1001));
        String better = chunk(readyId, 9, "Refund policy: every refund is paid back to the card it was paid with.",
                false);
        // then
        List<Map<String, Object>> items = items(get(caller, search("refund paid"), 200));
        assertThat(chunkId(items.get(0))).isEqualTo(better);
        assertThat(items).extracting(KnowledgeSearchTest::chunkId).doesNotContain(plantedId);
    }
}
