package ai.convo.command.knowledge;

import static ai.convo.command.token.DomainErrors.domainError;

import ai.convo.command.token.DomainErrors;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.knowledge.CompleteKnowledgeSourceIngestionCommand;
import ai.convo.contract.knowledge.CreateKnowledgeSourceCommand;
import ai.convo.contract.knowledge.DeleteKnowledgeSourceCommand;
import ai.convo.contract.knowledge.KnowledgeSourceCreatedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceDeletedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceId;
import ai.convo.contract.knowledge.KnowledgeSourceIngestedEvent;
import ai.convo.contract.knowledge.KnowledgeSourceIngestionFailedEvent;
import ai.convo.contract.knowledge.KnowledgeSourcePatch;
import ai.convo.contract.knowledge.KnowledgeSourceRecord;
import ai.convo.contract.knowledge.KnowledgeSourceUpdatedEvent;
import ai.convo.contract.knowledge.KnowledgeStoreId;
import ai.convo.contract.knowledge.SourceStatus;
import ai.convo.contract.knowledge.SourceType;
import ai.convo.contract.knowledge.UpdateKnowledgeSourceCommand;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.axonframework.eventsourcing.AggregateDeletedException;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The write model of a Knowledge Source and its status machine, in given / when / then. */
class KnowledgeSourceAggregateTest {

    static final String PROJECT = "a00000000000000000000001";
    static final String ORG = "b00000000000000000000001";
    static final String OTHER_ORG = "b00000000000000000000002";
    static final String USER = "c00000000000000000000001";
    static final String EDITOR = "c00000000000000000000002";
    static final String STORE = "d00000000000000000000001";
    static final String OTHER_STORE = "d00000000000000000000002";
    static final String SOURCE = "e00000000000000000000001";
    static final String REF = "6f1c2a4e-0000-4000-8000-000000000001";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;
    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final Actor SAME_ORG_EDITOR = new Actor(EDITOR, ORG, Role.ORG_ADMIN);
    static final Actor STRANGER = new Actor(EDITOR, OTHER_ORG, Role.ORG_ADMIN);
    /** 600 characters: two chunks; "short": one; a blank value: none. */
    static final Map<String, Object> DATA = data("body", "x".repeat(600), "title", "short", "empty", " ");

    private FixtureConfiguration<KnowledgeSourceAggregate> fixture;
    private FakeStores stores;

    @BeforeEach
    void setUp() {
        stores = new FakeStores().with(STORE, PROJECT, ORG).with(OTHER_STORE, PROJECT, ORG);
        fixture = new AggregateTestFixture<>(KnowledgeSourceAggregate.class);
        fixture.registerInjectableResource(stores);
    }

    static Map<String, Object> data(Object... keysAndValues) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            data.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return data;
    }

    static CreateKnowledgeSourceCommand create(SourceType type, List<String> tags, Map<String, Object> data) {
        return new CreateKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE), OWNER, REF,
                "Manual", "About it", type, tags, data, T0);
    }

    static KnowledgeSourceCreatedEvent created(SourceType type, SourceStatus status, int chunks, Map<String, Object> data) {
        return new KnowledgeSourceCreatedEvent(SOURCE, STORE, PROJECT, ORG, REF, "Manual", "About it", type.code(),
                status.code(), chunks, List.of("faq"), data, USER, T0);
    }

    static KnowledgeSourceCreatedEvent ready() {
        return created(SourceType.MANUAL, SourceStatus.READY, 3, DATA);
    }

    static KnowledgeSourceCreatedEvent ingesting(Map<String, Object> data) {
        return created(SourceType.PDF, SourceStatus.INGESTING, 0, data);
    }

    static KnowledgeSourceUpdatedEvent statusChanged(SourceStatus to) {
        return new KnowledgeSourceUpdatedEvent(SOURCE, STORE, PROJECT, ORG, List.of("status"), "Manual", "About it",
                to.code(), 3, List.of("faq"), DATA, EDITOR, T1);
    }

    static UpdateKnowledgeSourceCommand update(KnowledgeSourcePatch patch) {
        return new UpdateKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE),
                SAME_ORG_EDITOR, patch, T1);
    }

    static KnowledgeSourcePatch status(SourceStatus to) {
        return new KnowledgeSourcePatch(null, null, to, null, null);
    }

    static CompleteKnowledgeSourceIngestionCommand complete() {
        return new CompleteKnowledgeSourceIngestionCommand(KnowledgeSourceId.of(SOURCE), T1);
    }

    // ---- create

    @Nested
    @DisplayName("CreateKnowledgeSourceCommand")
    class Create {

        @ParameterizedTest
        @EnumSource(value = SourceType.class, names = {"MANUAL", "CTXT"})
        void givenAStore_whenCreatingAnInlineSource_thenReadyAtOnceWithTheChunksOfItsData(SourceType type) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(type, List.of("faq"), DATA))
                    // then
                    .expectEvents(created(type, SourceStatus.READY, 3, DATA));
        }

        @ParameterizedTest
        @EnumSource(value = SourceType.class, names = {"MANUAL", "CTXT"}, mode = EnumSource.Mode.EXCLUDE)
        void givenAStore_whenCreatingASourceThatNeedsIngestion_thenIngestingWithoutChunks(SourceType type) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(type, List.of("faq"), DATA))
                    // then
                    .expectEvents(created(type, SourceStatus.INGESTING, 0, DATA));
        }

        @Test
        void givenAnUnknownOrForeignStore_whenCreatingASource_thenNotFound() {
            // given
            stores.without(STORE);
            fixture.givenNoPriorActivity()
                    // when
                    .when(create(SourceType.MANUAL, List.of(), Map.of()))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge store " + STORE + " does not exist."))
                    .expectNoEvents();
            stores.with(STORE, PROJECT, OTHER_ORG);
            fixture.givenNoPriorActivity().when(create(SourceType.MANUAL, List.of(), Map.of()))
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist")).expectNoEvents();
        }

        @ParameterizedTest(name = "{0}: {2}")
        @MethodSource("ai.convo.command.knowledge.KnowledgeSourceAggregateTest#invalidCreates")
        void givenAStore_whenCreatingAnInvalidSource_thenInvalidNamingTheField(String field, CreateKnowledgeSourceCommand command,
                                                                               String why) {
            // given
            fixture.givenNoPriorActivity()
                    // when
                    .when(command)
                    // then
                    .expectException(DomainErrors.invalidField(field))
                    .expectNoEvents();
        }
    }

    static Stream<Arguments> invalidCreates() {
        Map<String, Object> tooMany = new LinkedHashMap<>();
        IntStream.range(0, 21).forEach(i -> tooMany.put("k" + i, "v"));
        CreateKnowledgeSourceCommand base = create(SourceType.MANUAL, List.of(), Map.of());
        return Stream.of(
                Arguments.of("name", new CreateKnowledgeSourceCommand(base.sourceId(), base.storeId(), OWNER, REF, " ",
                        "", SourceType.MANUAL, List.of(), Map.of(), T0), "blank"),
                Arguments.of("description", new CreateKnowledgeSourceCommand(base.sourceId(), base.storeId(), OWNER, REF,
                        "n", "d".repeat(1001), SourceType.MANUAL, List.of(), Map.of(), T0), "too long"),
                Arguments.of("type", new CreateKnowledgeSourceCommand(base.sourceId(), base.storeId(), OWNER, REF,
                        "n", "", null, List.of(), Map.of(), T0), "missing"),
                Arguments.of("metaData.tags", create(SourceType.MANUAL, IntStream.range(0, 31).mapToObj(i -> "t" + i)
                        .toList(), Map.of()), "31 tags"),
                Arguments.of("metaData.tags", create(SourceType.MANUAL, List.of("a", "a"), Map.of()), "repeated"),
                Arguments.of("metaData.tags", create(SourceType.MANUAL, List.of("t".repeat(101)), Map.of()), "long tag"),
                Arguments.of("data", create(SourceType.MANUAL, List.of(), tooMany), "21 keys"),
                Arguments.of("data", create(SourceType.MANUAL, List.of(), data("1st", "v")), "key pattern"),
                Arguments.of("data", create(SourceType.MANUAL, List.of(), data("k", "v".repeat(1001))), "long value"),
                Arguments.of("data", create(SourceType.MANUAL, List.of(), data("k", Map.of("a", 1))), "object value"));
    }

    // ---- the ingestion step (system)

    @Nested
    @DisplayName("CompleteKnowledgeSourceIngestionCommand")
    class Complete {

        @Test
        void givenAnIngestingSourceWithContent_whenIngestionCompletes_thenReadyWithItsChunkCount() {
            // given
            fixture.given(ingesting(DATA))
                    // when
                    .when(complete())
                    // then
                    .expectEvents(new KnowledgeSourceIngestedEvent(SOURCE, STORE, PROJECT, ORG, 3, T1));
        }

        @Test
        void givenAnIngestingSourceWithNothingToIngest_whenIngestionCompletes_thenFailure() {
            // given
            fixture.given(ingesting(data("empty", "  ")))
                    // when
                    .when(complete())
                    // then
                    .expectEvents(new KnowledgeSourceIngestionFailedEvent(SOURCE, STORE, PROJECT, ORG,
                            "The source has no content to ingest: its data holds no non-blank value.", T1));
        }

        @Test
        void givenASourceNoLongerIngesting_whenIngestionCompletesAgain_thenNothingChanges() {
            // given / when / then
            fixture.given(ingesting(DATA), new KnowledgeSourceIngestedEvent(SOURCE, STORE, PROJECT, ORG, 3, T1))
                    .when(complete()).expectSuccessfulHandlerExecution().expectNoEvents();
            fixture.given(ingesting(Map.of()), new KnowledgeSourceIngestionFailedEvent(SOURCE, STORE, PROJECT, ORG, "x", T1))
                    .when(complete()).expectSuccessfulHandlerExecution().expectNoEvents();
            fixture.given(ready(), statusChanged(SourceStatus.DISABLED))
                    .when(complete()).expectSuccessfulHandlerExecution().expectNoEvents();
        }

        @Test
        void givenAnIngestedSource_whenPatched_thenItIsEditableAndAnswersItsChunks() {
            // given
            fixture.given(ingesting(DATA), new KnowledgeSourceIngestedEvent(SOURCE, STORE, PROJECT, ORG, 3, T1))
                    // when
                    .when(update(status(SourceStatus.DISABLED)))
                    // then
                    .expectEvents(new KnowledgeSourceUpdatedEvent(SOURCE, STORE, PROJECT, ORG, List.of("status"), "Manual",
                            "About it", "disabled", 3, List.of("faq"), DATA, EDITOR, T1))
                    .expectResultMessagePayload(new KnowledgeSourceRecord(SOURCE, REF, "Manual", "About it", "pdf",
                            "disabled", 3, List.of("faq"), DATA, STORE, T0, T1, USER, EDITOR));
        }
    }

    // ---- the client's PATCH and the status machine

    @Nested
    @DisplayName("UpdateKnowledgeSourceCommand")
    class Update {

        @Test
        void givenAReadySource_whenDisabled_thenDisabled() {
            // given
            fixture.given(ready())
                    // when
                    .when(update(status(SourceStatus.DISABLED)))
                    // then
                    .expectEvents(statusChanged(SourceStatus.DISABLED))
                    .expectResultMessagePayload(new KnowledgeSourceRecord(SOURCE, REF, "Manual", "About it", "manual",
                            "disabled", 3, List.of("faq"), DATA, STORE, T0, T1, USER, EDITOR));
        }

        @Test
        void givenADisabledSource_whenMadeReady_thenReady() {
            // given
            fixture.given(ready(), statusChanged(SourceStatus.DISABLED))
                    // when
                    .when(update(status(SourceStatus.READY)))
                    // then
                    .expectEvents(statusChanged(SourceStatus.READY));
        }

        @ParameterizedTest(name = "{0} -> {1} is refused, allowed: [{2}]")
        @CsvSource({"ready,ingesting,disabled", "ready,failure,disabled", "disabled,ingesting,ready",
                "disabled,failure,ready", "failure,ready,", "failure,disabled,", "failure,ingesting,"})
        void givenASource_whenAClientAsksForAMoveItMayNotMake_thenConflictNamingTheAllowedMoves(String from, String to,
                                                                                             String allowed) {
            // given
            SourceStatus current = SourceStatus.fromCode(from).orElseThrow();
            SourceStatus target = SourceStatus.fromCode(to).orElseThrow();
            List<String> allowedCodes = allowed == null ? List.of() : List.of(allowed);
            var given = switch (current) {
                case READY -> fixture.given(ready());
                case DISABLED -> fixture.given(ready(), statusChanged(SourceStatus.DISABLED));
                default -> fixture.given(ingesting(Map.of()),
                        new KnowledgeSourceIngestionFailedEvent(SOURCE, STORE, PROJECT, ORG, "nothing", T1));
            };
            // when
            given.when(update(status(target)))
                    // then
                    .expectException(domainError(DomainException.Kind.CONFLICT,
                            "cannot move from status '" + from + "' to '" + to + "'",
                            Map.of("status", from, "requested", to, "allowed", allowedCodes)))
                    .expectNoEvents();
        }

        @Test
        void givenAnIngestingSource_whenAnyFieldIsPatched_thenConflictAndNothingChanges() {
            // given / when / then
            for (KnowledgeSourcePatch patch : List.of(new KnowledgeSourcePatch("Renamed", null, null, null, null),
                    new KnowledgeSourcePatch(null, "d", null, null, null), status(SourceStatus.DISABLED),
                    status(SourceStatus.READY), new KnowledgeSourcePatch(null, null, null, List.of("x"), null),
                    new KnowledgeSourcePatch(null, null, null, null, Map.of("k", "v")), KnowledgeSourcePatch.empty())) {
                fixture.given(ingesting(DATA))
                        .when(update(patch))
                        .expectException(domainError(DomainException.Kind.CONFLICT, "is being ingested and cannot be edited",
                                Map.of("status", "ingesting", "allowed", List.of())))
                        .expectNoEvents();
            }
        }

        @Test
        void givenAReadySource_whenEveryFieldChanges_thenTheEventCarriesTheFullStateAndTheChunksOfTheNewData() {
            // given
            Map<String, Object> newData = data("answer", "y".repeat(1000), "count", 7, "flag", true);
            fixture.given(ready())
                    // when
                    .when(update(new KnowledgeSourcePatch("Renamed", "New", SourceStatus.DISABLED, List.of("a", "b"), newData)))
                    // then
                    .expectEvents(new KnowledgeSourceUpdatedEvent(SOURCE, STORE, PROJECT, ORG,
                            List.of("name", "description", "status", "metaData.tags", "data"), "Renamed", "New", "disabled",
                            4, List.of("a", "b"), newData, EDITOR, T1));
        }

        @Test
        void givenASourceWithTags_whenTagsArePatched_thenTheListIsReplacedNotMerged() {
            // given
            fixture.given(ready())
                    // when
                    .when(update(new KnowledgeSourcePatch(null, null, null, List.of(), null)))
                    // then
                    .expectEvents(new KnowledgeSourceUpdatedEvent(SOURCE, STORE, PROJECT, ORG, List.of("metaData.tags"),
                            "Manual", "About it", "ready", 3, List.of(), DATA, EDITOR, T1));
        }

        @Test
        void givenAFailedSource_whenItsNameAndDataArePatched_thenEditedButStillFailureWithoutChunks() {
            // given
            fixture.given(ingesting(Map.of()), new KnowledgeSourceIngestionFailedEvent(SOURCE, STORE, PROJECT, ORG, "x", T1))
                    // when
                    .when(update(new KnowledgeSourcePatch("Renamed", null, null, null, DATA)))
                    // then
                    .expectEvents(new KnowledgeSourceUpdatedEvent(SOURCE, STORE, PROJECT, ORG, List.of("name", "data"),
                            "Renamed", "About it", "failure", 0, List.of("faq"), DATA, EDITOR, T1));
        }

        @Test
        void givenASource_whenThePatchRepeatsTheCurrentValues_thenNothingChangesAndTheRecordIsAnswered() {
            // given
            fixture.given(ready())
                    // when
                    .when(update(new KnowledgeSourcePatch("Manual", "About it", SourceStatus.READY, List.of("faq"), DATA)))
                    // then
                    .expectSuccessfulHandlerExecution()
                    .expectNoEvents()
                    .expectResultMessagePayload(new KnowledgeSourceRecord(SOURCE, REF, "Manual", "About it", "manual",
                            "ready", 3, List.of("faq"), DATA, STORE, T0, T0, USER, USER));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("ai.convo.command.knowledge.KnowledgeSourceAggregateTest#invalidPatches")
        void givenASource_whenPatchedWithAnInvalidValue_thenInvalidNamingTheField(String field, KnowledgeSourcePatch patch) {
            // given
            fixture.given(ready())
                    // when
                    .when(update(patch))
                    // then
                    .expectException(DomainErrors.invalidField(field))
                    .expectNoEvents();
        }

        @Test
        void givenASource_whenAStrangerOrAnotherStoresPathPatchesIt_thenNotFound() {
            // given / when / then
            fixture.given(ready())
                    .when(new UpdateKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE),
                            STRANGER, status(SourceStatus.DISABLED), T1))
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge source " + SOURCE + " does not exist."))
                    .expectNoEvents();
            fixture.given(ready())
                    .when(new UpdateKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(OTHER_STORE),
                            SAME_ORG_EDITOR, status(SourceStatus.DISABLED), T1))
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge source " + SOURCE + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenASourceWhoseStoreWasDeleted_whenPatched_thenNotFound() {
            // given
            stores.without(STORE);
            fixture.given(ready())
                    // when
                    .when(update(status(SourceStatus.DISABLED)))
                    // then
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "Knowledge source " + SOURCE + " does not exist."))
                    .expectNoEvents();
        }

        @Test
        void givenADeletedSource_whenPatched_thenTheAggregateIsGone() {
            // given
            fixture.given(ready(), new KnowledgeSourceDeletedEvent(SOURCE, STORE, PROJECT, ORG, USER, T1))
                    // when
                    .when(update(status(SourceStatus.DISABLED)))
                    // then
                    .expectException(AggregateDeletedException.class)
                    .expectNoEvents();
        }
    }

    static Stream<Arguments> invalidPatches() {
        Map<String, Object> tooMany = new LinkedHashMap<>();
        IntStream.range(0, 21).forEach(i -> tooMany.put("k" + i, i));
        return Stream.of(
                Arguments.of("name", new KnowledgeSourcePatch("", null, null, null, null)),
                Arguments.of("description", new KnowledgeSourcePatch(null, "d".repeat(1001), null, null, null)),
                Arguments.of("metaData.tags", new KnowledgeSourcePatch(null, null, null, List.of(" "), null)),
                Arguments.of("data", new KnowledgeSourcePatch(null, null, null, null, tooMany)),
                Arguments.of("data", new KnowledgeSourcePatch(null, null, null, null, data("has space", "v"))),
                Arguments.of("data", new KnowledgeSourcePatch(null, null, null, null, data("k", List.of("v")))));
    }

    // ---- delete

    @Nested
    @DisplayName("DeleteKnowledgeSourceCommand")
    class Delete {

        @Test
        void givenAReadyOrIngestingSource_whenDeleted_thenDeletedAndMarkedDeleted() {
            // given / when / then
            for (KnowledgeSourceCreatedEvent given : List.of(ready(), ingesting(DATA))) {
                fixture.given(given)
                        .when(new DeleteKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE),
                                SAME_ORG_EDITOR, T1))
                        .expectEvents(new KnowledgeSourceDeletedEvent(SOURCE, STORE, PROJECT, ORG, EDITOR, T1))
                        .expectMarkedDeleted();
            }
        }

        @Test
        void givenASource_whenAStrangerDeletesItOrItsStoreIsGone_thenNotFound() {
            // given / when / then
            fixture.given(ready())
                    .when(new DeleteKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE), STRANGER, T1))
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist")).expectNoEvents();
            stores.without(STORE);
            fixture.given(ready())
                    .when(new DeleteKnowledgeSourceCommand(KnowledgeSourceId.of(SOURCE), KnowledgeStoreId.of(STORE),
                            SAME_ORG_EDITOR, T1))
                    .expectException(domainError(DomainException.Kind.NOT_FOUND, "does not exist")).expectNoEvents();
        }
    }
}
