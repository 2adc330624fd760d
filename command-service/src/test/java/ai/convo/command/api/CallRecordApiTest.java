package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.http.security.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.json.JsonMapper;

/** POST /management/v2.0/callrecords over HTTP: dedup, all-or-nothing validation, who may send, media types. */
class CallRecordApiTest extends ApiTestBase {

    static final String PATH = "/management/v2.0/callrecords";
    static final long T0 = 1_767_225_600L; // 2026-01-01T00:00:00Z
    static final JsonMapper JSON = JsonMapper.builder().build();

    private String project;
    private String adminOrganisation;
    private String run;

    @BeforeEach
    void seed() {
        project = (String) createProject(ADMIN_KEY, "Calls " + UUID.randomUUID(), "en-US").get("_id");
        adminOrganisation = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE email = ?",
                String.class, ADMIN_EMAIL);
        run = UUID.randomUUID().toString().substring(0, 8);
    }

    static Map<String, Object> record(String callId, String projectId, Object startedAt, Object endedAt, Object billable) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("callId", callId);
        record.put("projectId", projectId);
        record.put("startedAt", startedAt);
        record.put("endedAt", endedAt);
        record.put("billable", billable);
        return record;
    }

    private WebTestClient.ResponseSpec post(String key, Object body) {
        return http.post().uri(PATH).header("X-API-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ingest(String key, Object body) {
        return post(key, body).expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> problem(String key, Object body, int status) {
        return post(key, body).expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private long ingestedEvents() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = ?", Long.class,
                "ai.convo.contract.callcounter.CallRecordsIngestedEvent");
        return count == null ? 0 : count;
    }

    private long claims(String organisationId) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM cmd_call_record_id WHERE organisation_id = ?",
                Long.class, organisationId);
        return count == null ? 0 : count;
    }

    /** A member of the admin's organisation with an API key, stored as the identity lookup would store it. */
    private String memberKey() {
        String user = Ids.newId();
        String key = Secrets.newApiKey();
        jdbc.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at) "
                + "VALUES (?, ?, ?, 'x', 'MEMBER', 0)", user, adminOrganisation, user + "@example.com");
        jdbc.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at) "
                + "VALUES (?, ?, ?, 'member', ?, 0)", Ids.newId(), user, adminOrganisation, Secrets.hashApiKey(key));
        return key;
    }

    @Test
    void aBatchIsStoredAsOneEventAndTheAnswerSaysWhatWasNew() {
        long eventsBefore = ingestedEvents();
        long claimsBefore = claims(adminOrganisation);
        List<Map<String, Object>> records = List.of(
                record(run + "-a", project, T0, T0 + 61, true),
                record(run + "-b", project, T0 + 10, T0 + 10, false),
                record(run + "-a", project, T0 + 500, T0 + 600, false));

        Map<String, Object> answer = ingest(ADMIN_KEY, Map.of("records", records));

        assertThat(answer.keySet()).containsExactly("batchId", "organisationId", "received", "ingested", "duplicates");
        assertThat((String) answer.get("batchId")).matches("[a-z0-9]{24}");
        assertThat(answer).containsEntry("organisationId", adminOrganisation).containsEntry("received", 3)
                .containsEntry("ingested", 2).containsEntry("duplicates", 1);
        assertThat(ingestedEvents()).isEqualTo(eventsBefore + 1);
        assertThat(claims(adminOrganisation)).isEqualTo(claimsBefore + 2);
        String payload = new String(jdbc.queryForObject("SELECT payload FROM domain_event_entry WHERE aggregate_identifier = ?",
                byte[].class, answer.get("batchId")), StandardCharsets.UTF_8);
        assertThat(payload).contains("\"callId\":\"" + run + "-a\"", "\"startedAt\":" + T0, "\"endedAt\":" + (T0 + 61))
                .doesNotContain("\"startedAt\":" + (T0 + 500));
    }

    @Test
    void aRetriedBatchCountsNothingTwice() {
        List<Map<String, Object>> records = List.of(record(run + "-1", project, T0, T0 + 60, true),
                record(run + "-2", project, T0, T0 + 120, false));
        assertThat(ingest(ADMIN_KEY, Map.of("records", records))).containsEntry("ingested", 2);
        long claimsAfterFirst = claims(adminOrganisation);

        Map<String, Object> retry = ingest(ADMIN_KEY, Map.of("records", records));

        assertThat(retry).containsEntry("received", 2).containsEntry("ingested", 0).containsEntry("duplicates", 2);
        assertThat(claims(adminOrganisation)).isEqualTo(claimsAfterFirst);
    }

    @Test
    void concurrentCopiesOfOneBatchStoreEachRecordExactlyOnce() {
        List<Map<String, Object>> records = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            records.add(record(run + "-c" + i, project, T0 + i, T0 + i + 30, i % 3 == 0));
        }
        List<CompletableFuture<Map<String, Object>>> copies = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            copies.add(CompletableFuture.supplyAsync(() -> ingest(ADMIN_KEY, Map.of("records", records))));
        }

        int ingested = copies.stream().mapToInt(copy -> (Integer) copy.join().get("ingested")).sum();
        int duplicates = copies.stream().mapToInt(copy -> (Integer) copy.join().get("duplicates")).sum();

        assertThat(ingested).isEqualTo(2_000);
        assertThat(duplicates).isEqualTo(4_000);
    }

    @Test
    void oneBadRecordRejectsTheBatchAndEveryBadRecordIsListedByIndex() {
        String foreignProject = (String) createProject(otherOrganisationKey("calls-" + run + "@example.com"),
                "Not yours", "en-US").get("_id");
        long eventsBefore = ingestedEvents();
        long claimsBefore = claims(adminOrganisation);
        Map<String, Object> missingBillable = record(run + "-m", project, T0, T0 + 1, true);
        missingBillable.remove("billable");
        Map<String, Object> extraField = record(run + "-x", project, T0, T0 + 1, true);
        extraField.put("duration", 1);
        List<Object> records = new ArrayList<>(List.of(
                record(run + "-ok", project, T0, T0 + 60, true),
                record(run + "-back", project, T0 + 60, T0, true),
                record(run + "-unknown", "a0000000000000000000dead", T0, T0 + 1, false),
                record(run + "-foreign", foreignProject, T0, T0 + 1, false),
                record(run + "-range", project, -5, 2_147_483_648L, false),
                missingBillable,
                record(run + "-types", project, "yesterday", 1.5, "yes"),
                extraField,
                "not an object"));

        Map<String, Object> problem = problem(ADMIN_KEY, Map.of("records", records), 400);

        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat((String) problem.get("detail")).startsWith("8 of 9 call records are invalid, so nothing was stored");
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) problem.get("details");
        assertThat(details.keySet()).containsExactly(
                "records[1].endedAt", "records[2].projectId", "records[3].projectId", "records[4].startedAt",
                "records[4].endedAt", "records[5].billable", "records[6].startedAt", "records[6].endedAt",
                "records[6].billable", "records[7].duration", "records[8]");
        assertThat((String) details.get("records[1].endedAt")).contains("must not be before startedAt");
        assertThat((String) details.get("records[3].projectId")).contains("does not exist in organisation");
        assertThat((String) details.get("records[5].billable")).isEqualTo("is required: true or false");
        assertThat(ingestedEvents()).isEqualTo(eventsBefore);
        assertThat(claims(adminOrganisation)).isEqualTo(claimsBefore);
    }

    @Test
    void theBatchItselfMustBeAnArrayOfOneToTenThousandRecords() {
        assertThat(problem(ADMIN_KEY, Map.of(), 400).get("details")).isEqualTo(Map.of("records",
                "is required: an array of 1 to 10000 call records, each an object {callId, projectId, startedAt, endedAt, billable}"));
        assertThat(problem(ADMIN_KEY, Map.of("records", "all of them"), 400).get("details"))
                .isEqualTo(Map.of("records", "must be an array of 1 to 10000 call records"));
        assertThat(problem(ADMIN_KEY, Map.of("records", List.of()), 400).get("details"))
                .isEqualTo(Map.of("records", "must hold 1 to 10000 call records; got 0"));
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i <= 10_000; i++) {
            tooMany.add(record("c" + i, project, T0, T0, false));
        }
        assertThat(problem(ADMIN_KEY, Map.of("records", tooMany), 400).get("details"))
                .isEqualTo(Map.of("records", "must hold 1 to 10000 call records; got 10001"));
        assertThat(problem(ADMIN_KEY, Map.of("records", List.of(), "batch", 1), 400).get("details"))
                .isEqualTo(Map.of("batch", "unknown field; allowed: organisationId, records"));
        assertThat(problem(ADMIN_KEY, Map.of("records", List.of(), "organisationId", "acme"), 400).get("detail").toString())
                .contains("organisationId");
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"records\": [").exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not valid JSON"));
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").isEqualTo("A JSON object body is required.");
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).contentType(MediaType.TEXT_PLAIN).bodyValue("callId=1")
                .exchange().expectStatus().isEqualTo(415);
    }

    @Test
    void aFullBatchWithTheLongestCallIdsFitsTheBodyLimit() throws Exception {
        List<Map<String, Object>> records = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String callId = run + String.format("%056d", i);
            records.add(record(callId, project, 2_147_483_000L, 2_147_483_647L, true));
        }
        byte[] body = JSON.writeValueAsBytes(Map.of("records", records));
        assertThat(records.get(0).get("callId").toString()).hasSize(64);
        assertThat(body.length).isLessThan(2 * 1024 * 1024);

        Map<String, Object> answer = ingest(ADMIN_KEY, body);

        assertThat(answer).containsEntry("received", 10_000).containsEntry("ingested", 10_000);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                Long.class, answer.get("batchId"))).isEqualTo(10L);
    }

    @Test
    void anOrganisationAdministratorSendsRecordsOfTheirOwnOrganisationOnly() {
        String email = "org-admin-" + run + "@example.com";
        String key = otherOrganisationKey(email);
        String ownOrganisation = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE email = ?",
                String.class, email);
        String ownProject = (String) createProject(key, "Own", "en-US").get("_id");

        assertThat(ingest(key, Map.of("records", List.of(record(run + "-o", ownProject, T0, T0 + 5, true)))))
                .containsEntry("organisationId", ownOrganisation).containsEntry("ingested", 1);
        assertThat(ingest(key, Map.of("organisationId", ownOrganisation,
                "records", List.of(record(run + "-p", ownProject, T0, T0 + 5, true))))).containsEntry("ingested", 1);
        // Basic authentication works as well (the route takes every scheme).
        http.post().uri(PATH).header("Authorization", basic(email, "password-" + email))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("records", List.of(record(run + "-q", ownProject, T0, T0 + 5, true))))
                .exchange().expectStatus().isOk();

        Map<String, Object> forbidden = problem(key, Map.of("organisationId", adminOrganisation,
                "records", List.of(record(run + "-r", project, T0, T0 + 5, true))), 403);
        assertThat((String) forbidden.get("detail")).contains("Only a system administrator");
        // The admin's project is not a project of this organisation.
        assertThat(problem(key, Map.of("records", List.of(record(run + "-s", project, T0, T0 + 5, true))), 400)
                .get("details")).isEqualTo(Map.of("records[0].projectId",
                "project " + project + " does not exist in organisation " + ownOrganisation));
        // Call ids are per organisation: the same callId is new in another organisation.
        assertThat(ingest(ADMIN_KEY, Map.of("records", List.of(record(run + "-o", project, T0, T0 + 5, true)))))
                .containsEntry("ingested", 1);
    }

    @Test
    void aSystemAdministratorNamesTheOrganisation() {
        String email = "named-" + run + "@example.com";
        String key = otherOrganisationKey(email);
        String organisation = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE email = ?",
                String.class, email);
        String theirProject = (String) createProject(key, "Theirs", "en-US").get("_id");

        assertThat(ingest(ADMIN_KEY, Map.of("organisationId", organisation,
                "records", List.of(record(run + "-t", theirProject, T0, T0 + 5, true)))))
                .containsEntry("organisationId", organisation).containsEntry("ingested", 1);
        assertThat(claims(organisation)).isEqualTo(1);

        Map<String, Object> missing = problem(ADMIN_KEY, Map.of("organisationId", "00000000000000000000dead",
                "records", List.of(record(run + "-u", theirProject, T0, T0 + 5, true))), 404);
        assertThat(missing.get("detail")).isEqualTo("Organisation 00000000000000000000dead does not exist.");
    }

    @Test
    void membersAndStrangersMayNotSendRecords() {
        Map<String, Object> body = Map.of("records", List.of(record(run + "-v", project, T0, T0 + 5, true)));
        assertThat((String) problem(memberKey(), body, 403).get("detail")).contains("organisation administrator");
        http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isUnauthorized().expectBody().jsonPath("$.code").isEqualTo("401");
        http.post().uri(PATH).header("X-API-Key", "not-a-key").contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isUnauthorized();
    }

    @Test
    void theAnswerComesInEveryMediaType() {
        Map<String, Object> body = Map.of("records", List.of(record(run + "-w", project, T0, T0 + 5, true)));
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_XML)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isOk().expectHeader().contentType(MediaType.APPLICATION_XML)
                .expectBody(String.class).value(xml -> assertThat(xml).startsWith("<callRecordBatch>")
                        .contains("<received>1</received>", "<ingested>1</ingested>", "<duplicates>0</duplicates>"));
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).accept(MediaType.parseMediaType("text/csv"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isOk()
                .expectBody(String.class).value(csv -> assertThat(csv.split("\r\n")).hasSize(2)
                        .startsWith("batchId,organisationId,received,ingested,duplicates"));
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).accept(MediaType.parseMediaType("application/hal+json"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._links.self.href").isEqualTo("/new" + PATH);
        long before = ingestedEvents();
        http.post().uri(PATH).header("X-API-Key", ADMIN_KEY).accept(MediaType.IMAGE_PNG)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("records", List.of(record(run + "-y", project, T0, T0 + 5, true)))).exchange()
                .expectStatus().isEqualTo(406);
        assertThat(ingestedEvents()).as("a refused media type stores nothing").isEqualTo(before);
    }
}
