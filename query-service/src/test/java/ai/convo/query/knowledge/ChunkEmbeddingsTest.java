package ai.convo.query.knowledge;

import ai.convo.query.ReadModelSchema;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.persistence.BatchingJdbcTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The background embedding of chunks, one round at a time with the real model: organisations in turn, English stores
 * only, a changed text embedded again, an unchanged one only versioned, gone chunks swept.
 */
@Tag("integration")
class ChunkEmbeddingsTest {

    static final String USER = "000000000000000000000002";
    static final String BIG = "0000000000000000000000f1";
    static final String SMALL = "0000000000000000000000f2";

    static BatchingJdbcTemplate jdbc;
    static final ChunkEmbedder EMBEDDER = new ChunkEmbedder();
    KnowledgeProjection knowledge;
    int chunks;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        for (String table : List.of("knowledge_chunk_embedding", "knowledge_chunk_view", "knowledge_source_view",
                "knowledge_store_view", "knowledge_project")) {
            jdbc.update("DELETE FROM " + table);
        }
        knowledge = new KnowledgeProjection(jdbc);
    }

    private ChunkEmbeddings worker(int batch, int perOrganisation) {
        return new ChunkEmbeddings(jdbc, EMBEDDER, Duration.ofMillis(200), batch, perOrganisation);
    }

    /** A project, a store of the language and a source, all of the organisation; answers the source's id. */
    private String source(String org, String language) {
        String suffix = org.substring(22) + language.substring(0, 2);
        String project = "0000000000000000000a" + suffix;
        String store = "0000000000000000000b" + suffix;
        String source = "0000000000000000000c" + suffix;
        knowledge.on(new ProjectCreatedEvent(project, org, "P", "", USER, 1));
        knowledge.on(new KnowledgeStoreCreatedEvent(store, project, org, "r", "FAQ", "", language, USER, 2));
        knowledge.on(new KnowledgeSourceCreatedEvent(source, store, project, org, "r", "Doc", "", "manual", "ready", 0,
                List.of(), Map.of(), USER, 3));
        return source;
    }

    private String chunk(String org, String source, String text) {
        String id = String.format("%024d", ++chunks);
        knowledge.on(new KnowledgeChunkCreatedEvent(id, source, store(source), project(source), org, "r" + id, chunks,
                text, false, Map.of(), chunks, USER, 10 + chunks));
        return id;
    }

    private static String store(String source) {
        return "0000000000000000000b" + source.substring(20);
    }

    private static String project(String source) {
        return "0000000000000000000a" + source.substring(20);
    }

    private List<String> embeddedIds() {
        return jdbc.queryForList("SELECT chunk_id FROM knowledge_chunk_embedding ORDER BY chunk_id", String.class);
    }

    @Test
    void givenAnOrganisationWithManyPendingChunksAndAnotherWithOne_whenOneRoundRuns_thenTheOtherOnesIsInIt() {
        // given: the big organisation's chunks are all older
        String big = source(BIG, "en-US");
        for (int i = 0; i < 20; i++) {
            chunk(BIG, big, "Opening hours, part " + i + ": the shop opens at nine.");
        }
        String small = chunk(SMALL, source(SMALL, "en-GB"), "Refunds are paid within ten days.");
        // when
        ChunkEmbeddings.Round round = worker(4, 2).round();
        // then: two of the big one's (its turn), and the small one's
        assertThat(round.embedded()).isEqualTo(3);
        assertThat(embeddedIds()).hasSize(3).contains(small);
        assertThat(worker(4, 2).pending()).extracting(ChunkEmbeddings.Pending::organisationId).containsOnly(BIG);
    }

    @Test
    void givenAChunkOfANonEnglishStore_whenRoundsRun_thenItIsNotEmbedded() {
        String german = chunk(BIG, source(BIG, "de-DE"), "Erstattungen werden innerhalb von zehn Tagen gezahlt.");
        String english = chunk(BIG, source(BIG, "en-US"), "Refunds are paid within ten days.");
        assertThat(worker(16, 4).round().embedded()).isEqualTo(1);
        assertThat(embeddedIds()).containsExactly(english).doesNotContain(german);
        assertThat(worker(16, 4).round().idle()).isTrue();
    }

    @Test
    void givenAnEmbeddedChunk_whenItsTextChanges_thenItIsEmbeddedAgain_andWhenOnlyDisabledChanges_thenOnlyVersioned() {
        // given
        String source = source(BIG, "en-US");
        String id = chunk(BIG, source, "Refunds are paid within ten days.");
        worker(16, 4).round();
        byte[] before = jdbc.queryForObject("SELECT vector FROM knowledge_chunk_embedding WHERE chunk_id = ?",
                byte[].class, id);
        // when: the text changes
        knowledge.on(new KnowledgeChunkUpdatedEvent(id, source, store(source), project(source), BIG, List.of("text"), 1,
                "Parking is free behind the shop.", false, Map.of(), USER, 50));
        ChunkEmbeddings.Round round = worker(16, 4).round();
        // then
        assertThat(round.embedded()).isEqualTo(1);
        byte[] after = jdbc.queryForObject("SELECT vector FROM knowledge_chunk_embedding WHERE chunk_id = ?",
                byte[].class, id);
        assertThat(after).isNotEqualTo(before)
                .isEqualTo(ChunkEmbeddings.bytes(EMBEDDER.embed("Parking is free behind the shop.")));
        // when: only disabled changes
        knowledge.on(new KnowledgeChunkUpdatedEvent(id, source, store(source), project(source), BIG,
                List.of("disabled"), 1, "Parking is free behind the shop.", true, Map.of(), USER, 51));
        round = worker(16, 4).round();
        // then
        assertThat(round.embedded()).isZero();
        assertThat(round.versioned()).isEqualTo(1);
        assertThat(worker(16, 4).pending()).isEmpty();
    }

    @Test
    void givenAChunkThatChangedAfterItWasRead_whenItsEmbeddingIsWritten_thenNothingIsWrittenAndItStaysPending() {
        // given: read for a round
        String source = source(BIG, "en-US");
        String id = chunk(BIG, source, "Refunds are paid within ten days.");
        ChunkEmbeddings worker = worker(16, 4);
        List<ChunkEmbeddings.Pending> read = worker.pending();
        // when: it changes before the write
        knowledge.on(new KnowledgeChunkUpdatedEvent(id, source, store(source), project(source), BIG, List.of("text"), 1,
                "Parking is free behind the shop.", false, Map.of(), USER, 50));
        int written = jdbc.update("INSERT INTO knowledge_chunk_embedding (chunk_id, organisation_id, chunk_version, "
                        + "text_md5, model, vector) SELECT c.id, c.organisation_id, c.xmin::text::bigint, md5(c.text), "
                        + "?, ? FROM knowledge_chunk_view c WHERE c.id = ? AND c.xmin::text::bigint = ?",
                ChunkEmbedder.MODEL, ChunkEmbeddings.bytes(EMBEDDER.embed(read.get(0).text())), id,
                read.get(0).version());
        // then
        assertThat(written).isZero();
        assertThat(worker.pending()).extracting(ChunkEmbeddings.Pending::text)
                .containsExactly("Parking is free behind the shop.");
    }

    @Test
    void givenAnEmbeddedChunk_whenItIsDeleted_thenTheSweepRemovesItsRow() {
        String source = source(BIG, "en-US");
        String id = chunk(BIG, source, "Refunds are paid within ten days.");
        worker(16, 4).round();
        knowledge.on(new KnowledgeChunkDeletedEvent(id, source, store(source), project(source), BIG, 0, USER, 60));
        assertThat(worker(16, 4).sweep()).isEqualTo(1);
        assertThat(embeddedIds()).isEmpty();
    }
}
