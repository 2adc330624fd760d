package ai.convo.command.knowledge;

import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.ORG;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.OWNER;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.PROJECT;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.SOURCE;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.STORE;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.T0;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.T1;
import static ai.convo.command.knowledge.KnowledgeSourceAggregateTest.USER;
import static ai.convo.command.token.DomainErrors.domainError;

import ai.convo.contract.common.DomainException;
import ai.convo.contract.knowledge.CreateKnowledgeChunkCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeChunkCommand;
import ai.convo.contract.knowledge.KnowledgeChunkCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeChunkId;
import ai.convo.contract.knowledge.KnowledgeRules;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.SourceStatus;
import ai.convo.contract.knowledge.SourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Chunks as entities of their source: the per-source limit, the source's chunk count, and status guards. */
class KnowledgeChunkAggregateTest {

    private FixtureConfiguration<KnowledgeSourceAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(KnowledgeSourceAggregate.class);
        fixture.registerInjectableResource(new FakeStores().with(STORE, PROJECT, ORG));
    }

    private static String chunkId(int i) {
        return String.format("f%023d", i);
    }

    private static KnowledgeChunkCreatedEvent chunk(int i) {
        return new KnowledgeChunkCreatedEvent(chunkId(i), SOURCE, STORE, PROJECT, ORG, "ref-" + i, i, "text " + i, false,
                Map.of(), i + 1, USER, T0);
    }

    private static CreateKnowledgeChunkCommand create(int i) {
        return new CreateKnowledgeChunkCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE),
                KnowledgeChunkId.of(chunkId(i)), OWNER, "ref-" + i, "text " + i, null, Map.of(), T0);
    }

    private static List<Object> readySourceWith(int chunks) {
        List<Object> events = new ArrayList<>();
        events.add(KnowledgeSourceAggregateTest.created(SourceType.MANUAL, SourceStatus.READY, 0, Map.of()));
        for (int i = 0; i < chunks; i++) {
            events.add(chunk(i));
        }
        return events;
    }

    @Test
    void givenASourceWithOneChunkLessThanTheLimit_whenOneMoreIsCreated_thenItIsTheLastAndCountsTheLimit() {
        // given
        int below = KnowledgeRules.MAX_CHUNKS_PER_SOURCE - 1;
        fixture.given(readySourceWith(below))
                // when
                .when(create(below))
                // then
                .expectEvents(chunk(below));
    }

    @Test
    void givenASourceAtTheLimit_whenAnotherChunkIsCreated_thenConflictNamingTheLimit() {
        // given
        fixture.given(readySourceWith(KnowledgeRules.MAX_CHUNKS_PER_SOURCE))
                // when
                .when(create(KnowledgeRules.MAX_CHUNKS_PER_SOURCE))
                // then
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.CONFLICT, "already has 1000 chunks"));
    }

    @Test
    void givenASourceAtTheLimit_whenOneIsDeleted_thenTheCountDropsAndAnotherFits() {
        // given
        List<Object> full = readySourceWith(KnowledgeRules.MAX_CHUNKS_PER_SOURCE);
        full.add(new KnowledgeChunkDeletedEvent(chunkId(5), SOURCE, STORE, PROJECT, ORG, 999, USER, T1));
        fixture.given(full)
                // when
                .when(create(5000))
                // then: appended after the highest order
                .expectEvents(new KnowledgeChunkCreatedEvent(chunkId(5000), SOURCE, STORE, PROJECT, ORG, "ref-5000",
                        KnowledgeRules.MAX_CHUNKS_PER_SOURCE, "text 5000", false, Map.of(), 1000, USER, T0));
    }

    @Test
    void givenADeletedChunk_whenDeletedAgain_thenNotFound() {
        // given
        List<Object> events = readySourceWith(1);
        events.add(new KnowledgeChunkDeletedEvent(chunkId(0), SOURCE, STORE, PROJECT, ORG, 0, USER, T1));
        fixture.given(events)
                // when
                .when(new DeleteKnowledgeChunkCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE),
                        KnowledgeChunkId.of(chunkId(0)), OWNER, T1))
                // then
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge chunk " + chunkId(0)));
    }

    @Test
    void givenAFailedSource_whenAChunkIsCreated_thenConflict() {
        // given
        fixture.given(KnowledgeSourceAggregateTest.created(SourceType.PDF, SourceStatus.FAILURE, 0, Map.of()))
                // when
                .when(create(0))
                // then
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.CONFLICT, "is failure"));
    }
}
