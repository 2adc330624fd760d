package ai.convo.query.knowledge;

import ai.convo.query.ReadModelSchema;
import ai.convo.persistence.BatchingJdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreDeletedEvent;
import ai.convo.contract.project.ProjectCreatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The knowledge projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class KnowledgeProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String PROJECT = "0000000000000000000000a1";
    static final String STORE = "0000000000000000000000b1";
    static final String SOURCE = "0000000000000000000000c1";

    static BatchingJdbcTemplate jdbc;
    KnowledgeProjection knowledge;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new BatchingJdbcTemplate(dataSource, 100);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM knowledge_source_view");
        jdbc.update("DELETE FROM knowledge_store_view");
        jdbc.update("DELETE FROM knowledge_project");
        knowledge = new KnowledgeProjection(jdbc);
    }

    static KnowledgeStoreCreatedEvent storeCreated() {
        return new KnowledgeStoreCreatedEvent(STORE, PROJECT, ORG, "ref-s", "FAQ", "", "en-US", USER, 10);
    }

    static KnowledgeSourceCreatedEvent sourceCreated(String status) {
        return new KnowledgeSourceCreatedEvent(SOURCE, STORE, PROJECT, ORG, "ref-c", "Doc", "", "pdf", status, 0,
                List.of("a"), Map.of("text", "hello"), USER, 11);
    }

    private Map<String, Object> sourceRow() {
        return jdbc.queryForMap("SELECT status, chunk_count, tags, data, last_changed FROM knowledge_source_view WHERE id = ?",
                SOURCE);
    }

    private long count(String table) {
        return jdbc.queryForObject("SELECT count(*) FROM " + table, Long.class);
    }

    @Test
    void givenALiveProjectAndStore_whenASourceIsIngestedThenPatched_thenTheRowFollows() {
        // given
        knowledge.on(new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 1));
        knowledge.on(storeCreated());
        knowledge.on(sourceCreated("ingesting"));
        // when
        knowledge.on(new KnowledgeSourceIngestedEvent(SOURCE, STORE, PROJECT, ORG, 4, 12));
        // then
        assertThat(sourceRow()).containsEntry("status", "ready").containsEntry("chunk_count", 4L)
                .containsEntry("last_changed", 12L);
        // when
        knowledge.on(new KnowledgeSourceUpdatedEvent(SOURCE, STORE, PROJECT, ORG, List.of("status", "data"), "Doc", "",
                "disabled", 1, List.of(), Map.of("k", true), USER, 13));
        // then
        assertThat(sourceRow()).containsEntry("status", "disabled").containsEntry("chunk_count", 1L)
                .containsEntry("tags", "[]").containsEntry("data", "{\"k\":true}");
    }

    @Test
    void givenAnIngestingSource_whenIngestionFails_thenFailureWithoutChunks() {
        // given
        knowledge.on(new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 1));
        knowledge.on(storeCreated());
        knowledge.on(sourceCreated("ingesting"));
        // when
        knowledge.on(new KnowledgeSourceIngestionFailedEvent(SOURCE, STORE, PROJECT, ORG, "nothing", 12));
        // then
        assertThat(sourceRow()).containsEntry("status", "failure").containsEntry("chunk_count", 0L);
    }

    @Test
    void givenADeletedStore_whenALateSourceEventArrives_thenNoOrphanRow() {
        // given
        knowledge.on(new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 1));
        knowledge.on(storeCreated());
        knowledge.on(sourceCreated("ready"));
        // when
        knowledge.on(new KnowledgeStoreDeletedEvent(STORE, PROJECT, ORG, USER, 20));
        knowledge.on(new KnowledgeSourceCreatedEvent("0000000000000000000000c2", STORE, PROJECT, ORG, "r", "Late", "",
                "manual", "ready", 0, List.of(), Map.of(), USER, 21));
        // then
        assertThat(count("knowledge_store_view")).isZero();
        assertThat(count("knowledge_source_view")).isZero();
    }

    @Test
    void givenADeletedProject_whenALateStoreEventArrives_thenNothingOfTheProjectRemains() {
        // given
        knowledge.on(new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 1));
        knowledge.on(storeCreated());
        knowledge.on(sourceCreated("ready"));
        // when
        knowledge.on(new ProjectDeletedEvent(PROJECT, ORG, USER, 30));
        knowledge.on(new KnowledgeStoreCreatedEvent("0000000000000000000000b2", PROJECT, ORG, "r", "Late", "", "en-US",
                USER, 31));
        // then
        assertThat(count("knowledge_store_view")).isZero();
        assertThat(count("knowledge_source_view")).isZero();
        assertThat(count("knowledge_project")).isZero();
    }

    @Test
    void givenASource_whenDeleted_thenOnlyItsRowGoes() {
        // given
        knowledge.on(new ProjectCreatedEvent(PROJECT, ORG, "P", "", USER, 1));
        knowledge.on(storeCreated());
        knowledge.on(sourceCreated("ready"));
        // when
        knowledge.on(new KnowledgeSourceDeletedEvent(SOURCE, STORE, PROJECT, ORG, USER, 40));
        // then
        assertThat(count("knowledge_source_view")).isZero();
        assertThat(count("knowledge_store_view")).isEqualTo(1);
    }

    @Test
    void givenTheSequencingPolicy_whenAskedForAStoreSourceAndProjectEvent_thenAllShareTheProject() {
        // given / when / then
        for (Object payload : List.of(storeCreated(), sourceCreated("ready"),
                new KnowledgeStoreDeletedEvent(STORE, PROJECT, ORG, USER, 1), new ProjectDeletedEvent(PROJECT, ORG, USER, 1),
                new KnowledgeSourceIngestedEvent(SOURCE, STORE, PROJECT, ORG, 1, 1))) {
            assertThat(KnowledgeProcessing.BY_PROJECT.getSequenceIdentifierFor(
                    new GenericDomainEventMessage<>("Any", "agg", 0, payload))).isEqualTo(PROJECT);
        }
    }
}
