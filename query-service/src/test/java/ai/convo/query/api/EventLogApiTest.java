package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleUpdatedEvent;
import ai.convo.contract.locale.PrimaryLocaleChangedEvent;
import ai.convo.contract.identity.ApiKeyIssuedEvent;
import ai.convo.http.security.Secrets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

/**
 * GET /v2.0/eventlog and /v2.0/auditevents over the real filter chain: an organisation sees its own events numbered
 * 1, 2, 3... and nothing of another; the events of one command are one audit event; no secret appears; a live tail
 * resumes after its Last-Event-ID without a gap or a repeat.
 */
class EventLogApiTest extends QueryTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Caller alice;
    private Caller bob;
    private Project aliceProject;
    private long position;
    private String second;

    @BeforeEach
    void seed() {
        alice = newOrganisation();
        bob = newOrganisation();
        aliceProject = project(alice, "Audited", 1000);
        project(bob, "Other", 1000);
        second = Ids.newId();
        locale(alice, aliceProject.id(), second, "German", "de-DE", 1001);
        // One command, two events: the new primary locale and the demotion of the old one.
        String command = "command-" + Ids.newId();
        appendCorrelated(aliceProject.id(), command, new LocaleUpdatedEvent(aliceProject.id(), alice.organisationId(),
                second, List.of("primary"), "German", "de-DE", true, null, alice.userId(), 1002_000));
        position = appendCorrelated(aliceProject.id(), command, new PrimaryLocaleChangedEvent(aliceProject.id(),
                alice.organisationId(), aliceProject.primaryLocaleId(), second, alice.userId(), 1002_000));
        position = appendCorrelated(alice.userId(), "key-" + Ids.newId(), new ApiKeyIssuedEvent(alice.userId(),
                alice.organisationId(), Ids.newId(), "ci", Secrets.hashApiKey("secret-key"), 1003_000));
    }

    private long appendCorrelated(String aggregateId, String correlationId, Object payload) {
        return append(aggregateId, payload, MetaData.with("correlationId", correlationId));
    }

    private List<Map<String, Object>> ndjson(Caller caller, String query) {
        String body = http.get().uri("/v2.0/eventlog" + query)
                .header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/x-ndjson"))
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentType("application/x-ndjson")
                .expectBody(String.class).returnResult().getResponseBody();
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : body == null ? new String[0] : body.split("\n")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> event = JSON.readValue(line, Map.class);
            lines.add(event);
        }
        return lines;
    }

    @Test
    void anOrganisationReadsItsOwnLogNumberedFromOneAndNothingOfAnother() {
        List<Map<String, Object>> log = ndjson(alice, "");
        assertThat(log).extracting(e -> ((Number) e.get("position")).longValue()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(log).extracting(e -> e.get("type")).containsExactly("ProjectCreated", "LocaleCreated",
                "LocaleCreated", "LocaleUpdated", "PrimaryLocaleChanged", "ApiKeyIssued");
        assertThat(log.get(0).keySet()).containsExactly("position", "eventId", "resourceType", "resourceId",
                "sequenceNumber", "type", "timestamp", "actor", "payload");
        assertThat(log.get(0).get("resourceType")).isEqualTo("project");
        assertThat(log.get(0).get("actor")).isEqualTo(alice.userId());
        assertThat(log).allSatisfy(e -> assertThat(e.toString()).doesNotContain(bob.organisationId()));
        // The API key's hash is a secret: the event is there, its hash is not.
        assertThat(log.get(5).toString()).doesNotContain("keyHash").doesNotContain(Secrets.hashApiKey("secret-key"));
        List<Map<String, Object>> other = ndjson(bob, "");
        assertThat(other).extracting(e -> ((Number) e.get("position")).longValue()).containsExactly(1L, 2L);
    }

    @Test
    void filtersByPositionTypeAndResource() {
        assertThat(ndjson(alice, "?from=4")).extracting(e -> e.get("type"))
                .containsExactly("LocaleUpdated", "PrimaryLocaleChanged", "ApiKeyIssued");
        assertThat(ndjson(alice, "?type=LocaleCreated")).hasSize(2);
        assertThat(ndjson(alice, "?resourceType=locale&resourceId=" + second))
                .extracting(e -> e.get("type")).containsExactly("LocaleCreated", "LocaleUpdated", "PrimaryLocaleChanged");
        assertThat(ndjson(alice, "?projectId=" + aliceProject.id())).hasSize(5);
        http.get().uri("/v2.0/eventlog?from=zero").header("X-API-Key", alice.apiKey()).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat(d.toString()).contains("from must be a position"));
        http.get().uri("/v2.0/eventlog?resourceType=lexicon").header("X-API-Key", alice.apiKey()).exchange()
                .expectStatus().isBadRequest();
        http.get().uri("/v2.0/eventlog").header("X-API-Key", alice.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isEqualTo(406);
    }

    @Test
    void oneAuditEventPerCommandInTheOfficialClientsShape() {
        Map<String, Object> page = http.get().uri("/v2.0/auditevents?limit=100")
                .header("X-API-Key", alice.apiKey())
                .header("X-Event-Position", Long.toString(position))
                .exchange().expectStatus().isOk()
                .expectBody(new ParameterizedTypeReference<Map<String, Object>>() { }).returnResult().getResponseBody();
        List<Map<String, Object>> items = ListPages.items(page);
        // project created, two locales created, one primary switch (two events), one API key
        assertThat(items).extracting(e -> e.get("type")).containsExactly("create", "create", "create", "patch", "create");
        Map<String, Object> patch = items.get(3);
        assertThat(patch.keySet()).contains("_id", "timestamp", "type", "user", "userReference", "organisationReference",
                "projectReference", "chain", "payload", "expiresAt");
        assertThat(patch.get("user")).isEqualTo(alice.userId() + "@example.com");
        assertThat(patch.get("organisationReference")).isEqualTo(alice.organisationId());
        assertThat(patch.get("projectReference")).isEqualTo(aliceProject.id());
        assertThat(java.time.Instant.parse((String) patch.get("timestamp"))).isBefore(java.time.Instant.now().plusSeconds(1));
        assertThat(patch.get("expiresAt")).isNull(); // retention unlimited by default
        assertThat((Map<String, Object>) patch.get("payload")).containsEntry("primary", true)
                .containsEntry("previousPrimaryLocaleId", aliceProject.primaryLocaleId());
        assertThat(items.get(4).get("actionType")).isEqualTo("createApiKey");
        assertThat(items.get(4).toString()).doesNotContain("keyHash");
        String id = (String) patch.get("_id");
        http.get().uri("/v2.0/auditevents/" + id).header("X-API-Key", alice.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._id").isEqualTo(id).jsonPath("$.type").isEqualTo("patch");
        // Another organisation: as if it did not exist.
        http.get().uri("/v2.0/auditevents/" + id).header("X-API-Key", bob.apiKey()).exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/auditevents?type=patch").header("X-API-Key", bob.apiKey()).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.total").isEqualTo(0);
    }

    @Test
    void membersMayNotReadTheLogOrTheTrail() {
        String key = colleague(alice, "MEMBER").apiKey();
        http.get().uri("/v2.0/auditevents").header("X-API-Key", key).exchange().expectStatus().isForbidden();
        http.get().uri("/v2.0/eventlog").header("X-API-Key", key).exchange().expectStatus().isForbidden();
        // An administrator may not name another organisation.
        http.get().uri("/v2.0/eventlog?organisationId=" + bob.organisationId()).header("X-API-Key", alice.apiKey())
                .exchange().expectStatus().isForbidden();
    }

    @Test
    void aLiveTailResumesAfterItsLastEventIdWithoutGapOrRepeat() {
        WebClient client = WebClient.create("http://localhost:" + environment.getProperty("local.server.port") + "/new");
        ParameterizedTypeReference<ServerSentEvent<String>> sse = new ParameterizedTypeReference<>() { };
        Flux<ServerSentEvent<String>> first = client.get().uri("/v2.0/eventlog")
                .header("X-API-Key", alice.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.TEXT_EVENT_STREAM).retrieve().bodyToFlux(sse)
                .filter(event -> event.id() != null);
        // The six events there are, then one written while the stream is open.
        StepVerifier.create(first.take(7).map(ServerSentEvent::id))
                .expectNext("1", "2", "3", "4", "5", "6")
                .then(() -> locale(alice, aliceProject.id(), Ids.newId(), "French", "fr-FR", 1004))
                .expectNext("7")
                .verifyComplete();
        // Written while disconnected: the reconnect after 7 gets exactly these, in order.
        for (int i = 0; i < 5; i++) {
            locale(alice, aliceProject.id(), Ids.newId(), "L" + i, "en-US", 1005 + i);
        }
        Flux<ServerSentEvent<String>> resumed = client.get().uri("/v2.0/eventlog")
                .header("X-API-Key", alice.apiKey()).header("Last-Event-ID", "7")
                .accept(MediaType.TEXT_EVENT_STREAM).retrieve().bodyToFlux(sse)
                .filter(event -> event.id() != null);
        StepVerifier.create(resumed.take(5).map(ServerSentEvent::id))
                .expectNext("8", "9", "10", "11", "12")
                .expectComplete()
                .verify(Duration.ofSeconds(20));
    }

    @Test
    void aReconnectDuringABurstOfWritesMissesAndRepeatsNothing() throws Exception {
        WebClient client = WebClient.create("http://localhost:" + environment.getProperty("local.server.port") + "/new");
        ParameterizedTypeReference<ServerSentEvent<String>> sse = new ParameterizedTypeReference<>() { };
        int burst = 300;
        Thread writer = new Thread(() -> {
            for (int i = 0; i < burst; i++) {
                locale(alice, aliceProject.id(), Ids.newId(), "Burst " + i, "en-US", 2000 + i);
            }
        });
        writer.start();
        List<Long> seen = new ArrayList<>();
        long last = 0;
        // Three connections, the first two cut after 100 events while the burst goes on, each resuming after the
        // last id it got, as an EventSource does.
        for (int round = 0; round < 3; round++) {
            int take = round < 2 ? 100 : 6 + burst - 200;
            var request = client.get().uri("/v2.0/eventlog").header("X-API-Key", alice.apiKey())
                    .accept(MediaType.TEXT_EVENT_STREAM);
            if (last > 0) {
                request = request.header("Last-Event-ID", Long.toString(last));
            }
            List<String> ids = request.retrieve().bodyToFlux(sse).filter(event -> event.id() != null)
                    .map(ServerSentEvent::id).take(take).collectList().block(Duration.ofSeconds(60));
            assertThat(ids).hasSize(take);
            ids.forEach(id -> seen.add(Long.parseLong(id)));
            last = seen.get(seen.size() - 1);
        }
        writer.join(60_000);
        List<Long> expected = new ArrayList<>();
        for (long p = 1; p <= 6 + burst; p++) {
            expected.add(p);
        }
        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void aVoiceAssistantLinkShowsNoTokenInTheLog() {
        position = append(Ids.newId(), new ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent(Ids.newId(),
                "alexa", alice.userId(), alice.organisationId(), Ids.newId(), "aes-256-gcm",
                new ai.convo.contract.voiceassistant.SealedToken("nonce-a", "sealed-access"),
                new ai.convo.contract.voiceassistant.SealedToken("nonce-r", "sealed-refresh"), alice.userId(), 1005_000));
        List<Map<String, Object>> log = ndjson(alice, "?type=VoiceAssistantLinked");
        assertThat(log).hasSize(1);
        assertThat(log.get(0).toString()).doesNotContain("sealed-access").doesNotContain("sealed-refresh")
                .doesNotContain("nonce-").doesNotContain("aes-256-gcm");
        assertThat((Map<String, Object>) log.get(0).get("payload")).containsKeys("accountId", "voiceAssistant", "linkId");
        String audit = http.get().uri("/v2.0/auditevents?resourceType=voiceAssistantAccount").header("X-API-Key", alice.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(audit).contains("createAuthenticatedAmazonUser").doesNotContain("sealed-").doesNotContain("nonce-");
    }

    @Test
    void anEventCommittedAfterALaterOneIsLoggedOnceUnderItsOwnGlobalIndex() throws Exception {
        // A write transaction takes global index g1 and stays open while a later one (g2) commits: g1 is a gap the
        // processors pass, then fill. Its tracking token then says g2 (the furthest seen), not g1.
        String early = Ids.newId();
        String earlyEvent = java.util.UUID.randomUUID().toString();
        long g1;
        try (java.sql.Connection open = dataSource.getConnection()) {
            open.setAutoCommit(false);
            try (java.sql.PreparedStatement insert = open.prepareStatement("INSERT INTO domain_event_entry "
                    + "(event_identifier, aggregate_identifier, sequence_number, type, time_stamp, payload_type, payload, "
                    + "meta_data) VALUES (?, ?, 0, 'ProjectAggregate', ?, "
                    + "'ai.convo.contract.locale.LocaleDeletedEvent', ?, ?) RETURNING global_index")) {
                insert.setString(1, earlyEvent);
                insert.setString(2, early);
                insert.setString(3, java.time.Instant.now().toString());
                insert.setBytes(4, ("{\"projectId\":\"" + aliceProject.id() + "\",\"organisationId\":\""
                        + alice.organisationId() + "\",\"localeId\":\"" + early + "\",\"deletedBy\":\""
                        + alice.userId() + "\",\"deletedAt\":1}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                insert.setBytes(5, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                try (java.sql.ResultSet key = insert.executeQuery()) {
                    key.next();
                    g1 = key.getLong(1);
                }
            }
            long g2 = locale(alice, aliceProject.id(), Ids.newId(), "Later", "fr-FR", 3000);
            assertThat(g2).isGreaterThan(g1);
            position = g2;
            assertThat(ndjson(alice, "?from=7")).extracting(e -> e.get("type")).containsExactly("LocaleCreated");
            open.commit();
            position = g1;
        }
        List<Map<String, Object>> log = ndjson(alice, "?from=7");
        assertThat(log).extracting(e -> e.get("type")).containsExactly("LocaleCreated", "LocaleDeleted");
        assertThat(log.get(1).get("eventId")).isEqualTo(earlyEvent);
        assertThat(jdbc.queryForObject("SELECT global_index FROM event_log WHERE id = ?", Long.class, earlyEvent))
                .isEqualTo(g1);
    }
}
