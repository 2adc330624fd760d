package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import ai.convo.contract.callcounter.CallRecord;
import ai.convo.contract.callcounter.CallRecordsIngestedEvent;
import ai.convo.contract.common.Ids;
import ai.convo.http.security.Secrets;
import ai.convo.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** GET /v3.0/callcounter over HTTP: periods, zeros, the reported window, scope, authentication, media types. */
class CallCounterApiTest extends QueryTestBase {

    static final LocalDate MARCH_5 = LocalDate.of(2025, 3, 5);
    static final long M5 = MARCH_5.atStartOfDay().toEpochSecond(ZoneOffset.UTC);

    private Caller caller;
    private long position;

    @BeforeEach
    void seed() {
        caller = newOrganisation();
        String project = Ids.newId();
        // 2025-03-05: three calls, two overlapping; one runs into 2025-03-06. 2025-03-31 late evening: one call.
        position = ingest(caller, List.of(
                new CallRecord("a", project, M5 + 3_600, M5 + 3_661, true),
                new CallRecord("b", project, M5 + 3_630, M5 + 3_700, false),
                new CallRecord("c", project, M5 + 86_000, M5 + 87_000, true),
                new CallRecord("d", project, M5 + 27 * 86_400 - 10, M5 + 27 * 86_400 + 50, false)));
    }

    long ingest(Caller who, List<CallRecord> records) {
        String batchId = Ids.newId();
        return append(batchId, new CallRecordsIngestedEvent(batchId, who.organisationId(), 0, 1, records,
                records.size(), 0, who.userId(), 0));
    }

    private WebTestClient.ResponseSpec get(String query, String key) {
        return http.get().uri("/v3.0/callcounter" + query)
                .header("X-API-Key", key)
                .header("X-Event-Position", Long.toString(position))
                .exchange();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> items(String query) {
        Map<String, Object> body = get(query, caller.apiKey()).expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().valueEquals("X-Event-Position-Reached", "true")
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(body.keySet()).containsExactly("items");
        return (List<Map<String, Object>>) body.get("items");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> problem(String query, String key, int status) {
        return get(query, key).expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    static Map<String, Object> entry(int day, int month, int year, int max, int minutes, int processed, int billable) {
        return Map.of("day", day, "month", month, "year", year, "maxConcurrency", max, "callMinutes", minutes,
                "processedCalls", processed, "billableCalls", billable);
    }

    /** A user of the caller's organisation with another role and an API key. */
    private String keyWithRole(String role) {
        String user = Ids.newId();
        String key = Secrets.newApiKey();
        jdbc.update("INSERT INTO identity_user (id, organisation_id, email, password_hash, role, created_at) "
                + "VALUES (?, ?, ?, 'x', ?, 0)", user, caller.organisationId(), user + "@example.com", role);
        jdbc.update("INSERT INTO identity_api_key (id, user_id, organisation_id, label, key_hash, created_at) "
                + "VALUES (?, ?, ?, 'test', ?, 0)", Ids.newId(), user, caller.organisationId(), Secrets.hashApiKey(key));
        return key;
    }

    @Test
    void aMonthHasAnEntryForEveryDayInOrderWithZerosOnDaysWithoutCalls() {
        List<Map<String, Object>> march = items("?year=2025&month=3");

        assertThat(march).hasSize(31);
        assertThat(march.get(0)).isEqualTo(entry(1, 3, 2025, 0, 0, 0, 0));
        assertThat(march.get(0).keySet()).containsExactly("day", "month", "year", "maxConcurrency", "callMinutes",
                "processedCalls", "billableCalls");
        assertThat(march.get(4)).isEqualTo(entry(5, 3, 2025, 2, 2 + 2 + 17, 3, 2));
        assertThat(march.get(5)).isEqualTo(entry(6, 3, 2025, 1, 0, 0, 0));
        assertThat(march.get(30)).isEqualTo(entry(31, 3, 2025, 1, 1, 1, 0));
        assertThat(items("?year=2025&month=4").get(0)).isEqualTo(entry(1, 4, 2025, 1, 0, 0, 0));
    }

    @Test
    void aYearAndAnyRangeOfUpTo366DaysCanBeAskedFor() {
        assertThat(items("?year=2025")).hasSize(365);
        List<Map<String, Object>> range = items("?from=2025-03-04&to=2025-03-06");
        assertThat(range).extracting(e -> e.get("day")).containsExactly(4, 5, 6);
        assertThat(range.get(1).get("processedCalls")).isEqualTo(3);
        assertThat(items("?from=2025-01-01&to=2026-01-01")).hasSize(366);
    }

    @Test
    void daysBefore2025AreNeverReported() {
        assertThat(items("?year=2024")).isEmpty();
        assertThat(items("?year=2024&month=12")).isEmpty();
        assertThat(items("?from=2024-12-30&to=2025-01-02")).extracting(e -> e.get("year"), e -> e.get("day"))
                .containsExactly(tuple(2025, 1), tuple(2025, 2));
    }

    @Test
    void theNewestReportedDayIsTwoDaysAgo() {
        LocalDate today;
        List<Map<String, Object>> recent;
        List<Map<String, Object>> current;
        do {
            today = LocalDate.now(ZoneOffset.UTC);
            recent = items("?from=" + today.minusDays(6) + "&to=" + today.plusDays(3));
            current = items("");
        } while (!today.equals(LocalDate.now(ZoneOffset.UTC))); // the day changed during the requests: again
        LocalDate newest = today.minusDays(2);
        assertThat(recent).hasSize(5);
        assertThat(recent.get(4)).containsEntry("day", newest.getDayOfMonth()).containsEntry("month", newest.getMonthValue());
        // Without parameters: the month of the newest reported day, up to that day.
        assertThat(current).hasSize(newest.getDayOfMonth());
        assertThat(current.get(current.size() - 1)).containsEntry("day", newest.getDayOfMonth())
                .containsEntry("month", newest.getMonthValue()).containsEntry("year", newest.getYear());
        assertThat(items("?from=" + today.minusDays(1) + "&to=" + today.plusDays(30))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
            "?year=twenty,                          year",
            "?year=2025&month=13,                   month",
            "?month=3,                              year",
            "?from=2025-03-01,                      to",
            "?from=2025-02-30&to=2025-03-01,        from",
            "?from=2025-03-02&to=2025-03-01,        to",
            "?from=2025-01-01&to=2026-01-02,        to",
            "?year=2025&from=2025-01-01&to=2025-01-02, year",
            "?organisationId=acme,                  organisationId"})
    void malformedParametersAreA400NamingTheParameter(String query, String parameter) {
        Map<String, Object> problem = problem(query, caller.apiKey(), 400);
        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat((Map<String, Object>) problem.get("details")).containsOnlyKeys(parameter);
    }

    @Test
    void callersSeeTheirOwnOrganisationAndOnlyASystemAdministratorMayNameAnother() {
        Caller other = newOrganisation();
        long otherPosition = ingest(other, List.of(new CallRecord("x", Ids.newId(), M5 + 10, M5 + 70, true)));
        position = Math.max(position, otherPosition);

        // Each organisation sees its own counters only (the same callId in another organisation is another call).
        assertThat(items("?year=2025&month=3").get(4).get("processedCalls")).isEqualTo(3);
        assertThat(items("?year=2025&month=3&organisationId=" + caller.organisationId()).get(4).get("processedCalls"))
                .isEqualTo(3);
        assertThat((String) problem("?year=2025&month=3&organisationId=" + other.organisationId(), caller.apiKey(), 403)
                .get("detail")).contains("Only a system administrator");
        // A member reads the counters of their organisation.
        get("?year=2025&month=3", keyWithRole("MEMBER")).expectStatus().isOk()
                .expectBody().jsonPath("$.items[4].processedCalls").isEqualTo(3);

        String admin = keyWithRole("SYSTEM_ADMIN");
        get("?year=2025&month=3&organisationId=" + other.organisationId(), admin).expectStatus().isOk()
                .expectBody().jsonPath("$.items[4].processedCalls").isEqualTo(1)
                .jsonPath("$.items[4].maxConcurrency").isEqualTo(1);
        assertThat(problem("?year=2025&organisationId=00000000000000000000dead", admin, 404).get("detail"))
                .isEqualTo("Organisation 00000000000000000000dead does not exist.");
    }

    @Test
    void theDefaultSchemesAreAcceptedAndOthersRefused() {
        http.get().uri("/v3.0/callcounter?year=2025&api_key=" + caller.apiKey()).exchange().expectStatus().isOk();
        String email = caller.userId() + "@example.com";
        String basic = "Basic " + Base64.getEncoder().encodeToString((email + ":pw-" + caller.userId())
                .getBytes(StandardCharsets.UTF_8));
        http.get().uri("/v3.0/callcounter?year=2025").header("Authorization", basic).exchange().expectStatus().isOk();
        http.get().uri("/v3.0/callcounter?year=2025")
                .header("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(caller.userId()))
                .exchange().expectStatus().isOk();
        // The specification gives this operation the default schemes: a bearer access token is not one of them.
        http.get().uri("/v3.0/callcounter?year=2025")
                .header("Authorization", "Bearer " + TestTokens.bearer(caller.userId()))
                .exchange().expectStatus().isUnauthorized();
        http.get().uri("/v3.0/callcounter?year=2025").exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("401");
        http.get().uri("/v3.0/callcounter?year=2025").header("X-API-Key", "wrong").exchange()
                .expectStatus().isUnauthorized();
    }

    @Test
    void everyMediaTypeCarriesTheDays() {
        http.get().uri("/v3.0/callcounter?from=2025-03-05&to=2025-03-06").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).accept(MediaType.parseMediaType("text/csv"))
                .exchange().expectStatus().isOk()
                .expectHeader().contentType("text/csv;charset=UTF-8")
                .expectBody(String.class).isEqualTo("day,month,year,maxConcurrency,callMinutes,processedCalls,billableCalls\r\n"
                        + "5,3,2025,2,21,3,2\r\n6,3,2025,1,0,0,0\r\n");
        http.get().uri("/v3.0/callcounter?from=2025-03-05&to=2025-03-05").header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk()
                .expectBody(String.class).isEqualTo("<callCounter><items><item><day>5</day><month>3</month>"
                        + "<year>2025</year><maxConcurrency>2</maxConcurrency><callMinutes>21</callMinutes>"
                        + "<processedCalls>3</processedCalls><billableCalls>2</billableCalls></item></items></callCounter>");
        http.get().uri("/v3.0/callcounter?year=2025&month=3").header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("application/hal+json"))
                .exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.items.length()").isEqualTo(31)
                .jsonPath("$._links.self.href").isEqualTo("/new/v3.0/callcounter?year=2025&month=3");
        http.get().uri("/v3.0/callcounter?year=2024").header("X-API-Key", caller.apiKey())
                .accept(MediaType.parseMediaType("text/csv")).exchange().expectStatus().isOk()
                .expectBody(String.class).isEqualTo("\r\n");
        http.get().uri("/v3.0/callcounter").header("X-API-Key", caller.apiKey()).accept(MediaType.IMAGE_PNG)
                .exchange().expectStatus().isEqualTo(406);
        http.post().uri("/v3.0/callcounter").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isEqualTo(405);
    }
}
