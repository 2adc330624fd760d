package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.eventsourcing.VerifiedSnapshotter;
import ai.convo.command.project.ProjectAggregate;
import ai.convo.persistence.snapshots.AggregateShapes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.axonframework.spring.stereotype.Aggregate;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;

/** Aggregate snapshots and the aggregate cache are caches of the event log: they change no answer. */
class AggregateSnapshotsApiTest extends ApiTestBase {

    @Autowired
    VerifiedSnapshotter snapshotter;
    @Autowired
    @Qualifier("aggregateCache")
    Cache cache;
    @Autowired
    EventStore eventStore;
    @Autowired
    ApplicationContext context;

    @Test
    void anAggregatePastTheThresholdIsSnapshottedUnderItsShapesRevision() {
        Map<String, Object> project = createProject(ADMIN_KEY, "snapshotted", "en-US");
        String locale = (String) project.get("primaryLocaleReference");
        for (int i = 0; i < 8; i++) {
            patch(locale, Map.of("name", "name " + i));
        }

        String revision = awaitSnapshotRevision((String) project.get("_id"));

        assertThat(revision).isEqualTo(AggregateShapes.fingerprint(ProjectAggregate.class));
        assertThat(snapshotter.refused()).isZero();
    }

    @Test
    void givenAggregatesTakenPastTheThresholdInsideOneTransaction_whenItCommits_thenEachIsSnapshotted() {
        // given: a flow, and a file of 40 intents with 5 example sentences each (6 events an intent, threshold 3)
        Map<String, Object> project = createProject(ADMIN_KEY, "snapshots after the commit", "en-US");
        String flowId = (String) http.post().uri("/v2.0/flows").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("projectId", project.get("_id"),
                        "name", "Imported")).exchange().expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody().get("_id");
        StringBuilder file = new StringBuilder("[");
        for (int i = 0; i < 40; i++) {
            file.append(i == 0 ? "" : ",").append("{\"name\":\"Snap ").append(i)
                    .append("\",\"exampleSentences\":[\"a\",\"b\",\"c\",\"d\",\"e\"]}");
        }
        org.springframework.http.client.MultipartBodyBuilder parts = new org.springframework.http.client.MultipartBodyBuilder();
        parts.part("localeId", project.get("primaryLocaleReference"));
        parts.part("mode", "skip");
        parts.part("file", new org.springframework.core.io.ByteArrayResource(file.append(']').toString().getBytes()) {
            @Override
            public String getFilename() {
                return "intents.json";
            }
        });

        // when: the import sends them all in one transaction
        http.post().uri("/v2.0/flows/" + flowId + "/intents/import").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.MULTIPART_FORM_DATA)
                .body(org.springframework.web.reactive.function.BodyInserters.fromMultipartData(parts.build()))
                .exchange().expectStatus().isAccepted();

        // then: the first intent, whose threshold was crossed long before the commit, is snapshotted
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        List<String> first = List.of();
        while (first.isEmpty() && Instant.now().isBefore(deadline)) {
            first = jdbc.queryForList("SELECT aggregate_identifier FROM domain_event_entry WHERE payload_type LIKE "
                    + "'%.IntentCreatedEvent' AND convert_from(payload, 'UTF8')::jsonb ->> 'name' = 'Snap 0' "
                    + "AND convert_from(payload, 'UTF8')::jsonb ->> 'flowId' = ?", String.class, flowId);
        }
        assertThat(first).hasSize(1);
        awaitSnapshotRevision(first.get(0));
    }

    @Test
    void droppingSnapshotsAndCachedAggregatesChangesNoAnswer() {
        Map<String, Object> project = createProject(ADMIN_KEY, "cache of the log", "en-US");
        String projectId = (String) project.get("_id");
        String locale = (String) project.get("primaryLocaleReference");
        createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "German", "nluLanguage", "de-DE"));
        for (int i = 0; i < 8; i++) {
            patch(locale, Map.of("name", "name " + i));
        }
        awaitSnapshotRevision(projectId);
        Map<String, Object> fromCache = withoutTimes(patch(locale, Map.of("primary", true)));
        cache.removeAll();
        Map<String, Object> fromSnapshot = withoutTimes(patch(locale, Map.of("primary", true)));

        jdbc.update("DELETE FROM snapshot_entry WHERE aggregate_identifier = ?", projectId);
        cache.removeAll();
        Map<String, Object> fromEvents = withoutTimes(patch(locale, Map.of("primary", true)));

        assertThat(fromSnapshot).isEqualTo(fromCache);
        assertThat(fromEvents).isEqualTo(fromCache);
        assertThat(fromEvents).containsEntry("name", "name 7");
    }

    @Test
    void givenACachedAggregateBehindTheStore_whenAChangeThatChangesNothingIsDecidedHere_thenOnTheLatestState() {
        Map<String, Object> project = createProject(ADMIN_KEY, "written elsewhere", "en-US");
        String projectId = (String) project.get("_id");
        String locale = (String) project.get("primaryLocaleReference");
        patch(locale, Map.of("name", "here"));
        // given another replica appended to the aggregate after this one cached it
        appendedElsewhere(projectId, "here", "elsewhere");

        // when a change that changes nothing (so appends nothing that could collide) is decided here
        Map<String, Object> answer = patch(locale, Map.of("primary", true));

        // then it was decided again on what the store holds
        assertThat(answer).containsEntry("name", "elsewhere");
    }

    @Test
    void givenACachedAggregateBehindTheStore_whenItWouldRefuse_thenTheRefusalIsDecidedOnTheLatestState() {
        TwoLocales project = twoLocales("refused elsewhere");
        String projectId = project.id();
        String english = project.english();
        String german = project.german();
        patch(german, Map.of("name", "taken"));
        // given another replica renamed the locale after this one cached the project: "taken" is free again
        appendedElsewhere(projectId, "taken", "renamed elsewhere");
        long before = eventsOf(projectId);

        // when a rename to that name is decided here (the cached project would refuse it as a duplicate name)
        Map<String, Object> answer = patch(english, Map.of("name", "taken"));

        // then it is decided on the latest state: allowed
        assertThat(answer).containsEntry("name", "taken");
        assertThat(eventsOf(projectId)).isEqualTo(before + 1);
    }

    @Test
    void givenACachedAggregateBehindTheStore_whenAChangeAppends_thenItCollidesAndIsDecidedAgain() {
        TwoLocales project = twoLocales("appended elsewhere");
        String projectId = project.id();
        String english = project.english();
        String german = project.german();
        patch(english, Map.of("name", "here"));
        appendedElsewhere(projectId, "here", "elsewhere");
        long before = eventsOf(projectId);

        // when a change that appends is decided here, on the cached project
        Map<String, Object> answer = patch(english, Map.of("fallbackLocaleReference", german));

        // then its append collided with the other replica's event, and it was decided again on the latest state:
        // one event more, after the other replica's
        assertThat(answer).containsEntry("name", "elsewhere").containsEntry("fallbackLocaleReference", german);
        assertThat(eventsOf(projectId)).isEqualTo(before + 1);
    }

    private record TwoLocales(String id, String english, String german) {
    }

    private TwoLocales twoLocales(String name) {
        Map<String, Object> project = createProject(ADMIN_KEY, name, "en-US");
        String projectId = (String) project.get("_id");
        String german = (String) createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "German",
                "nluLanguage", "de-DE")).get("_id");
        return new TwoLocales(projectId, (String) project.get("primaryLocaleReference"), german);
    }

    private long eventsOf(String aggregateId) {
        return jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                Long.class, aggregateId);
    }

    /** Another replica's write: the aggregate's newest event again, with one name replaced, at the next sequence. */
    private void appendedElsewhere(String aggregateId, String from, String to) {
        int appended = jdbc.update("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, "
                + "sequence_number, type, time_stamp, payload_type, payload_revision, payload, meta_data) "
                + "SELECT gen_random_uuid()::text, aggregate_identifier, sequence_number + 1, type, time_stamp, "
                + "payload_type, payload_revision, convert_to(replace(convert_from(payload, 'UTF8'), ?, ?), 'UTF8'), "
                + "meta_data FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number DESC LIMIT 1", '"' + from + '"', '"' + to + '"', aggregateId);
        assertThat(appended).isOne();
    }

    @Test
    void everyAggregateInTheStoreReadsBackExactlyFromItsSnapshot() {
        String projectId = (String) createProject(ADMIN_KEY, "one of each at least", "en-US").get("_id");
        // settings hold free-form values (numbers, lists, null): they must read back as the same types
        patchSettings("/v2.0/projects/" + projectId + "/settings", Map.of("intentThreshold", Map.of("lower", 0.25),
                "learnNewExampleSentencesThreshold", 7, "positiveConfirmationWords", List.of("ja"),
                "audioPreviewSettings", Map.of("provider", "aws"),
                "generativeAISettings", Map.of("useCasesSettings", Map.of("nlu", Map.of("largeLanguageModelId", "m")))));
        Map<String, Object> noProvider = new HashMap<>();
        noProvider.put("provider", null);
        patchSettings("/v2.0/projects/" + projectId + "/settings", Map.of("audioPreviewSettings", noProvider));
        String flowId = (String) http.post().uri("/v2.0/flows").header("X-API-Key", ADMIN_KEY)
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", projectId, "name", "settings")).exchange()
                .expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody().get("_id");
        String localeId = jdbc.queryForObject("SELECT locale_id FROM cmd_locale_lookup WHERE project_id = ?",
                String.class, projectId);
        patchSettings("/v2.0/flows/" + flowId + "/settings", Map.of("yesNoIntentThreshold", 1, "localeSettings",
                Map.of("localeReference", localeId, "inheritFallbackLocaleModel", false)));
        // Streams another test began with a deletion (StateIntentDeletionApiTest appends an intent's deletion as
        // its only event, which no command writes) are no aggregate's history; the rest of the store is.
        List<Map<String, Object>> aggregates = jdbc.queryForList("SELECT DISTINCT ON (type) type, aggregate_identifier "
                + "FROM (SELECT type, aggregate_identifier, count(*) AS events FROM domain_event_entry e "
                + "WHERE type IS NOT NULL AND type <> 'CallRecordBatchAggregate' AND NOT EXISTS (SELECT 1 "
                + "FROM domain_event_entry f WHERE f.aggregate_identifier = e.aggregate_identifier "
                + "AND f.sequence_number = 0 AND f.payload_type LIKE '%DeletedEvent') "
                + "GROUP BY type, aggregate_identifier) a ORDER BY type, events DESC");
        assertThat(aggregates).isNotEmpty();
        aggregates = new java.util.ArrayList<>(aggregates);
        aggregates.add(Map.of("type", "ProjectAggregate", "aggregate_identifier", projectId));
        aggregates.add(Map.of("type", "FlowAggregate", "aggregate_identifier", flowId));
        Map<String, Class<?>> types = new HashMap<>();
        for (String bean : context.getBeanNamesForAnnotation(Aggregate.class)) {
            Class<?> type = context.getType(bean);
            types.put(type.getSimpleName(), type);
        }
        Map<String, String> differences = new HashMap<>();
        for (Map<String, Object> aggregate : aggregates) {
            String id = (String) aggregate.get("aggregate_identifier");
            Class<?> type = types.get((String) aggregate.get("type"));
            assertThat(type).as("aggregate type %s", aggregate.get("type")).isNotNull();
            DomainEventMessage<?> snapshot = snapshotter.snapshotOf(type, id, eventStore.readEvents(id));
            if (snapshot != null) {
                String difference = snapshotter.roundTripDifference(snapshot.getPayload());
                if (difference != null) {
                    differences.put((String) aggregate.get("type"), difference);
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    private void patchSettings(String uri, Object body) {
        http.patch().uri(uri).header("X-API-Key", ADMIN_KEY).contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(body).exchange().expectStatus().isOk();
    }

    /** State held as Object: a long comes back as an int, so such a snapshot would load differently. */
    static class LossyState {
        private final Map<String, Object> parameters = new java.util.LinkedHashMap<>(Map.of("limit", 5L));
    }

    @Test
    void aSnapshotThatWouldReadBackDifferentlyIsRefused() {
        assertThat(snapshotter.roundTripDifference(new LossyState())).contains(".parameters[limit]");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> patch(String locale, Map<String, Object> body) {
        return http.patch().uri("/v2.0/locales/" + locale)
                .header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.APPLICATION_JSON)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private static Map<String, Object> withoutTimes(Map<String, Object> body) {
        Map<String, Object> copy = new HashMap<>(body);
        copy.remove("lastChanged");
        return copy;
    }

    /** Snapshots are taken after the commit on a thread of their own: waits for this aggregate's (bounded). */
    private String awaitSnapshotRevision(String aggregateId) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline)) {
            List<String> revisions = jdbc.queryForList("SELECT payload_revision FROM snapshot_entry "
                    + "WHERE aggregate_identifier = ?", String.class, aggregateId);
            if (!revisions.isEmpty()) {
                return revisions.get(0);
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no snapshot of " + aggregateId + " within 20 s");
    }
}
