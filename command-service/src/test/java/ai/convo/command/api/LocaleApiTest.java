package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import ai.convo.contract.common.Actor;
import ai.convo.contract.identity.Role;
import ai.convo.contract.locale.DeleteLocaleCommand;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.LocalePatch;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.locale.UpdateLocaleCommand;
import ai.convo.persistence.AppendedPositions;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

class LocaleApiTest extends ApiTestBase {

    @Autowired
    CommandGateway gateway;

    private Map<String, Object> patch(String key, String localeId, Object body, int status) {
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = http.patch().uri("/v2.0/locales/{id}", localeId)
                .header("X-API-Key", key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus().isEqualTo(status)
                .expectBody(Map.class).returnResult().getResponseBody();
        return answer;
    }

    @Test
    void patchAnswersTheFullRecordAsHalByDefault() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Hal", "en-US");
        String primary = (String) project.get("primaryLocaleReference");
        http.patch().uri("/v2.0/locales/{id}", primary)
                .header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "English"))
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentType("application/hal+json")
                .expectBody()
                .jsonPath("$._id").isEqualTo(primary)
                .jsonPath("$.name").isEqualTo("English")
                .jsonPath("$.primary").isEqualTo(true)
                .jsonPath("$.nluLanguage").isEqualTo("en-US")
                .jsonPath("$.fallbackLocaleReference").isEmpty()
                .jsonPath("$.referenceId").value(ref -> assertThat((String) ref).matches("[0-9a-f-]{36}"))
                .jsonPath("$.createdAt").isNumber()
                .jsonPath("$.lastChanged").isNumber()
                .jsonPath("$.createdBy").isEqualTo(adminUserId())
                .jsonPath("$.lastChangedBy").isEqualTo(adminUserId())
                .jsonPath("$._links.self.href").isEqualTo("/new/v2.0/locales/" + primary);
    }

    @Test
    void givenAPatch_whenAnswered_thenItsPositionIsTheGlobalIndexOfTheEventItAppended() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Positions", "en-US");
        String projectId = (String) project.get("_id");
        String primary = (String) project.get("primaryLocaleReference");
        // another aggregate's event after this project's, so "the newest event of the store" would be wrong
        createProject(ADMIN_KEY, "Positions later", "en-US");

        String position = http.patch().uri("/v2.0/locales/{id}", primary).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Renamed"))
                .exchange().expectStatus().isOk()
                .returnResult(String.class).getResponseHeaders().getFirst("X-Event-Position");

        Long appended = jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number DESC LIMIT 1", Long.class, projectId);
        assertThat(Long.valueOf(position)).isEqualTo(appended);
        assertThat(jdbc.queryForObject("SELECT payload_type FROM domain_event_entry WHERE global_index = ?",
                String.class, appended)).endsWith("LocaleUpdatedEvent");
    }

    @Test
    void givenTrackedAppends_whenACommandAppends_thenTheAppendItselfTellsItsGlobalIndex() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Tracked", "en-US");
        String organisation = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE email = ?",
                String.class, ADMIN_EMAIL);
        UpdateLocaleCommand rename = new UpdateLocaleCommand(ProjectId.of((String) project.get("_id")),
                LocaleId.of((String) project.get("primaryLocaleReference")),
                new Actor(adminUserId(), organisation, Role.ORG_ADMIN),
                new LocalePatch("Tracked", null, null, false, null), 1L);

        AppendedPositions.track();
        gateway.sendAndWait(rename);
        Long tracked = AppendedPositions.take();

        assertThat(tracked).isEqualTo(jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry "
                + "WHERE aggregate_identifier = ?", Long.class, project.get("_id")));
        // untracked, an append records nothing
        gateway.sendAndWait(rename);
        assertThat(AppendedPositions.take()).isNull();
    }

    @Test
    void givenARememberedRoute_whenTheLocaleOrItsProjectIsGoneSince_thenTheAnswerIsAsForAnyMissingLocale() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Routes", "en-US");
        String projectId = (String) project.get("_id");
        String primary = (String) project.get("primaryLocaleReference");
        String other = (String) createLocale(ADMIN_KEY, Map.of("projectId", projectId, "name", "Other",
                "nluLanguage", "de-DE")).get("_id");
        patch(ADMIN_KEY, primary, Map.of("name", "Remembered"), 200);
        patch(ADMIN_KEY, other, Map.of("name", "Remembered too"), 200);

        // the route is remembered: no look-up (this row is what a look-up reads) decides the next command
        jdbc.update("DELETE FROM cmd_locale_lookup WHERE locale_id = ?", primary);
        assertThat(patch(ADMIN_KEY, primary, Map.of("name", "Without a look-up"), 200).get("name"))
                .isEqualTo("Without a look-up");
        jdbc.update("INSERT INTO cmd_locale_lookup (locale_id, project_id) VALUES (?, ?)", primary, projectId);

        // deleted as another replica would: this replica still remembers the route
        String organisation = jdbc.queryForObject("SELECT organisation_id FROM identity_user WHERE email = ?",
                String.class, ADMIN_EMAIL);
        gateway.sendAndWait(new DeleteLocaleCommand(ProjectId.of(projectId), LocaleId.of(other),
                new Actor(adminUserId(), organisation, Role.ORG_ADMIN), 1L));
        assertThat(patch(ADMIN_KEY, other, Map.of("name", "Gone"), 404).get("detail"))
                .isEqualTo("Locale " + other + " does not exist.");

        http.delete().uri("/v2.0/projects/{id}", projectId).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNoContent();
        assertThat(patch(ADMIN_KEY, primary, Map.of("name", "Gone"), 404).get("detail"))
                .as("not the project's not-found, which would name it")
                .isEqualTo("Locale " + primary + " does not exist.");
        http.delete().uri("/v2.0/locales/{id}", primary).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").isEqualTo("Locale " + primary + " does not exist.");
    }

    @Test
    void theWriteSidesLocaleTableFollowsFallbackAndPrimaryChangesAndIsNotWrittenForARename() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Write side", "en-US");
        String primary = (String) project.get("primaryLocaleReference");
        String other = (String) createLocale(ADMIN_KEY, Map.of("projectId", project.get("_id"), "name", "Other",
                "nluLanguage", "de-DE")).get("_id");

        patch(ADMIN_KEY, other, Map.of("fallbackLocaleReference", primary), 200);
        assertThat(jdbc.queryForObject("SELECT fallback_locale_id FROM cmd_intent_locale WHERE locale_id = ?",
                String.class, other)).isEqualTo(primary);

        String version = jdbc.queryForObject("SELECT xmin::text FROM cmd_intent_locale WHERE locale_id = ?",
                String.class, other);
        patch(ADMIN_KEY, other, Map.of("name", "Renamed", "nluLanguage", "fr-FR"), 200);
        assertThat(jdbc.queryForObject("SELECT xmin::text FROM cmd_intent_locale WHERE locale_id = ?",
                String.class, other)).as("a rename leaves the row as it was").isEqualTo(version);

        patch(ADMIN_KEY, other, Map.of("primary", true), 200);
        assertThat(jdbc.queryForList("SELECT locale_id FROM cmd_intent_locale WHERE project_id = ? AND is_primary",
                String.class, project.get("_id"))).containsExactly(other);
        patch(ADMIN_KEY, other, java.util.Collections.singletonMap("fallbackLocaleReference", null), 200);
        assertThat(jdbc.queryForObject("SELECT fallback_locale_id FROM cmd_intent_locale WHERE locale_id = ?",
                String.class, other)).isNull();
    }

    @Test
    void patchAnswersPlainJsonWhenAskedFor() {
        String primary = (String) createProject(ADMIN_KEY, "Json", "en-US").get("primaryLocaleReference");
        http.patch().uri("/v2.0/locales/{id}", primary)
                .header("X-API-Key", ADMIN_KEY)
                .accept(MediaType.APPLICATION_JSON)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("nluLanguage", "en-GB"))
                .exchange()
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$.nluLanguage").isEqualTo("en-GB").jsonPath("$._links").doesNotExist();
    }

    @Test
    void makingALocalePrimaryDemotesThePreviousOneAtomically() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Primary", "en-US");
        String first = (String) project.get("primaryLocaleReference");
        String second = (String) createLocale(ADMIN_KEY, Map.of("projectId", project.get("_id"), "name", "German",
                "nluLanguage", "de-DE")).get("_id");

        Map<String, Object> promoted = patch(ADMIN_KEY, second, Map.of("primary", true), 200);

        assertThat(promoted.get("primary")).isEqualTo(true);
        // An empty PATCH changes nothing and answers the current record.
        assertThat(patch(ADMIN_KEY, first, Map.of(), 200).get("primary")).isEqualTo(false);
        Integer primaries = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE payload_type = ?",
                Integer.class, "ai.convo.contract.locale.PrimaryLocaleChangedEvent");
        assertThat(primaries).isPositive();
    }

    @Test
    void thePrimaryLocaleCannotStopBeingPrimaryOnItsOwn() {
        String primary = (String) createProject(ADMIN_KEY, "One primary", "en-US").get("primaryLocaleReference");
        Map<String, Object> problem = patch(ADMIN_KEY, primary, Map.of("primary", false), 409);
        assertThat(problem.get("code")).isEqualTo("1004");
        assertThat((String) problem.get("detail")).contains("exactly one primary locale");
    }

    @Test
    void fallbacksMustStayInTheProjectAndNeverFormACycle() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Fallbacks", "en-US");
        String a = (String) project.get("primaryLocaleReference");
        String b = (String) createLocale(ADMIN_KEY, Map.of("projectId", project.get("_id"), "name", "B",
                "nluLanguage", "de-DE", "fallbackLocaleReference", a)).get("_id");
        String foreign = (String) createProject(ADMIN_KEY, "Elsewhere", "en-US").get("primaryLocaleReference");

        assertThat((String) patch(ADMIN_KEY, a, Map.of("fallbackLocaleReference", a), 400).get("detail"))
                .contains("own fallback");
        assertThat((String) patch(ADMIN_KEY, a, Map.of("fallbackLocaleReference", foreign), 400).get("detail"))
                .contains("not a locale of this project");
        Map<String, Object> cycle = patch(ADMIN_KEY, a, Map.of("fallbackLocaleReference", b), 409);
        assertThat((String) cycle.get("detail")).contains("cycle");

        Map<String, Object> clear = new HashMap<>();
        clear.put("fallbackLocaleReference", null);
        assertThat(patch(ADMIN_KEY, b, clear, 200).get("fallbackLocaleReference")).isNull();
        assertThat(patch(ADMIN_KEY, a, Map.of("fallbackLocaleReference", b), 200).get("fallbackLocaleReference"))
                .isEqualTo(b);
    }

    @Test
    void namesAreUniquePerProjectIgnoringCase() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Names", "en-US");
        createLocale(ADMIN_KEY, Map.of("projectId", project.get("_id"), "name", "German", "nluLanguage", "de-DE"));
        http.post().uri("/v2.0/locales").header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", project.get("_id"), "name", "GERMAN", "nluLanguage", "de-DE"))
                .exchange().expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("unique"));
        // The same name in another project is fine.
        Map<String, Object> other = createProject(ADMIN_KEY, "Names 2", "en-US");
        createLocale(ADMIN_KEY, Map.of("projectId", other.get("_id"), "name", "German", "nluLanguage", "de-DE"));
    }

    @Test
    void invalidPatchesAreRefusedWithEveryProblemAndChangeNothing() {
        String primary = (String) createProject(ADMIN_KEY, "Invalid", "en-US").get("primaryLocaleReference");
        long before = eventCount();
        Map<String, Object> problem = patch(ADMIN_KEY, primary,
                Map.of("name", 5, "primary", "yes", "nluLanguage", "klingon", "fallbackLocaleReference", "short",
                        "colour", "red"), 400);
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) problem.get("details");
        assertThat(details).containsKeys("name", "primary", "nluLanguage", "fallbackLocaleReference", "colour");
        assertThat((String) details.get("nluLanguage")).contains("de-DE");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void patchOfAMissingOrMalformedLocale() {
        patch(ADMIN_KEY, "aaaaaaaaaaaaaaaaaaaaaaaa", Map.of("name", "x"), 404);
        Map<String, Object> problem = patch(ADMIN_KEY, "ABC", Map.of("name", "x"), 400);
        assertThat((String) problem.get("detail")).contains("localeId");
    }

    @Test
    void malformedJsonAndWrongContentType() {
        String primary = (String) createProject(ADMIN_KEY, "Malformed", "en-US").get("primaryLocaleReference");
        http.patch().uri("/v2.0/locales/{id}", primary).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\": ")
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not valid JSON"));
        http.patch().uri("/v2.0/locales/{id}", primary).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.TEXT_PLAIN).bodyValue("name=x")
                .exchange().expectStatus().isEqualTo(415)
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("application/json"));
        http.patch().uri("/v2.0/locales/{id}", primary).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue("[1,2]")
                .exchange().expectStatus().isBadRequest();
    }

    @Test
    void deleteRules() {
        Map<String, Object> project = createProject(ADMIN_KEY, "Deletes", "en-US");
        String primary = (String) project.get("primaryLocaleReference");
        String dependent = (String) createLocale(ADMIN_KEY, Map.of("projectId", project.get("_id"), "name", "Dep",
                "nluLanguage", "de-DE", "fallbackLocaleReference", primary)).get("_id");
        String middle = (String) createLocale(ADMIN_KEY, Map.of("projectId", project.get("_id"), "name", "Mid",
                "nluLanguage", "fr-FR")).get("_id");
        patch(ADMIN_KEY, dependent, Map.of("fallbackLocaleReference", middle), 200);

        http.delete().uri("/v2.0/locales/{id}", primary).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isEqualTo(409);
        http.delete().uri("/v2.0/locales/{id}", middle).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.details.fallbackOf[0]").isEqualTo(dependent);
        http.delete().uri("/v2.0/locales/{id}", dependent).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNoContent();
        http.delete().uri("/v2.0/locales/{id}", middle).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNoContent();
        http.delete().uri("/v2.0/locales/{id}", middle).header("X-API-Key", ADMIN_KEY)
                .exchange().expectStatus().isNotFound();
    }

    @Test
    void createRefusesUnknownAndForeignProjects() {
        http.post().uri("/v2.0/locales").header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", "bbbbbbbbbbbbbbbbbbbbbbbb", "name", "X", "nluLanguage", "de-DE"))
                .exchange().expectStatus().isNotFound();
        String otherKey = otherOrganisationKey("locale-thief@example.com");
        Map<String, Object> mine = createProject(ADMIN_KEY, "Tenancy", "en-US");
        String primary = (String) mine.get("primaryLocaleReference");
        http.post().uri("/v2.0/locales").header("X-API-Key", otherKey).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("projectId", mine.get("_id"), "name", "X", "nluLanguage", "de-DE"))
                .exchange().expectStatus().isNotFound();
        // the refusal names only what the caller sent: not the project the foreign locale belongs to
        assertThat(patch(otherKey, primary, Map.of("name", "stolen"), 404).get("detail"))
                .isEqualTo("Locale " + primary + " does not exist.");
        http.delete().uri("/v2.0/locales/{id}", primary).header("X-API-Key", otherKey)
                .exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").isEqualTo("Locale " + primary + " does not exist.");
        assertThat(patch(ADMIN_KEY, primary, Map.of(), 200).get("name")).isEqualTo("en-US");
    }
}
