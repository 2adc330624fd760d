package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/** The intent write routes over real HTTP: POST, PATCH and DELETE /v2.0/flows/{flowId}/intents[/{intentId}]. */
class IntentApiTest extends IntentApiSupport {

    @Test
    void deletingAParentAnswersThePositionOfTheNewestEventOfEveryIntentItTouched() {
        Flow flow = newFlow();
        String parent = (String) createIntent(flow, Map.of("name", "Parent")).get("_id");
        String first = (String) createIntent(flow, Map.of("name", "First child", "parentIntentId", parent)).get("_id");
        String second = (String) createIntent(flow, Map.of("name", "Second child", "parentIntentId", parent)).get("_id");

        String position = http.delete().uri(intentsOf(flow) + "/" + parent).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().is2xxSuccessful()
                .returnResult(String.class).getResponseHeaders().getFirst("X-Event-Position");

        Long newest = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry WHERE aggregate_identifier "
                + "IN (?, ?, ?)", Long.class, parent, first, second);
        assertThat(Long.parseLong(position)).isEqualTo(newest);
        assertThat(jdbc.queryForObject("SELECT count(DISTINCT aggregate_identifier) FROM domain_event_entry "
                + "WHERE global_index > ? - 3 AND aggregate_identifier IN (?, ?, ?)", Integer.class, newest, parent,
                first, second)).isGreaterThan(1);
    }


    // ---- create

    @Test
    void givenAFlow_whenCreatingAnIntentWithOnlyAName_thenCreatedWithDefaultsLocationEventPositionAndThePrimaryLocale() {
        // given
        Flow flow = newFlow();
        // when
        var response = http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Order pizza")).exchange();
        // then
        Map<String, Object> intent = response.expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult().getResponseBody();
        String id = (String) intent.get("_id");
        assertThat(id).matches("^[a-z0-9]{24}$");
        response.expectHeader().location("/new" + intentsOf(flow) + "/" + id);
        assertThat(intent.keySet()).containsExactly("_id", "referenceId", "name", "description", "tags",
                "isRejectIntent", "isDisabled", "localeReference", "parentIntentId", "condition",
                "confirmationSentences", "disambiguationSentence", "rules", "data", "childFeatures",
                "biasTowardsParentOrChildIntents", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(intent).containsEntry("name", "Order pizza").containsEntry("description", "")
                .containsEntry("tags", List.of()).containsEntry("isRejectIntent", false)
                .containsEntry("isDisabled", false).containsEntry("localeReference", flow.primaryLocaleId())
                .containsEntry("parentIntentId", null).containsEntry("condition", "")
                .containsEntry("confirmationSentences", List.of()).containsEntry("disambiguationSentence", "")
                .containsEntry("rules", List.of()).containsEntry("data", Map.of()).containsEntry("childFeatures", false)
                .containsEntry("biasTowardsParentOrChildIntents", null)
                .containsEntry("createdBy", adminUserId()).containsEntry("lastChangedBy", adminUserId());
        assertThat((String) intent.get("referenceId")).matches("[0-9a-f-]{36}");
        assertThat(intent.get("createdAt")).isEqualTo(intent.get("lastChanged"));
        assertThat(eventsOfType("IntentCreatedEvent")).isPositive();
    }

    @Test
    void givenAFlow_whenCreatingAnIntentWithEveryField_thenTheRecordCarriesThemAll() {
        // given
        Flow flow = newFlow();
        String parent = intentNamed(flow, "Food");
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Order pizza");
        body.put("description", "Orders a pizza");
        body.put("tags", List.of("food", "order"));
        body.put("isRejectIntent", true);
        body.put("isDisabled", true);
        body.put("parentIntentId", parent);
        body.put("condition", "context.open");
        body.put("confirmationSentences", List.of("Pizza, right?"));
        body.put("disambiguationSentence", "Pizza or pasta?");
        body.put("rules", List.of("input.text == 'pizza'"));
        body.put("data", Map.of("size", "large", "nested", Map.of("n", 1)));
        body.put("childFeatures", List.of(parent));
        body.put("biasTowardsParentOrChildIntents", "children");
        // when
        Map<String, Object> intent = createIntent(flow, body);
        // then
        body.forEach((field, value) -> assertThat(intent).containsEntry(field, value));
    }

    @Test
    void givenABodyWithEveryKindOfMistake_whenCreating_thenOne400NamingEveryFieldAndNothingIsStored() {
        // given
        Flow flow = newFlow();
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("name", "");
        body.put("description", 5);
        body.put("tags", List.of("ok", "x".repeat(31)));
        body.put("isRejectIntent", "yes");
        body.put("isDisabled", 1);
        body.put("parentIntentId", "short");
        body.put("condition", List.of());
        body.put("confirmationSentences", "one");
        body.put("disambiguationSentence", false);
        body.put("rules", List.of(1));
        body.put("data", List.of());
        body.put("childFeatures", "all");
        body.put("biasTowardsParentOrChildIntents", "siblings");
        body.put("colour", "red");
        // when
        Map<String, Object> problem = json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY, body), 400);
        // then
        assertThat(problem.get("code")).isEqualTo("1000");
        assertThat(details(problem)).containsOnlyKeys("name", "description", "tags", "isRejectIntent", "isDisabled",
                "parentIntentId", "condition", "confirmationSentences", "disambiguationSentence", "rules", "data",
                "childFeatures", "biasTowardsParentOrChildIntents", "colour");
        assertThat((String) details(problem).get("biasTowardsParentOrChildIntents")).contains("parents, children");
        assertThat((String) details(problem).get("tags")).contains("1 to 30 characters");
        assertThat((String) problem.get("detail")).contains("name", "tags", "childFeatures");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenLimits_whenTheyAreExceeded_then400NamingTheField() {
        // given
        Flow flow = newFlow();
        List<String> elevenTags = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            elevenTags.add("tag" + i);
        }
        // when / then
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "A", "tags", elevenTags)), 400))).containsOnlyKeys("tags");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "x".repeat(201))), 400))).containsOnlyKeys("name");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "A", "tags", List.of(""))), 400))).containsOnlyKeys("tags");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("description", "no name")), 400))).containsOnlyKeys("name");
        // data keys are XML element names in XML answers, at every depth
        Map<String, Object> badKey = json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "A", "data", Map.of("ok", List.of(Map.of("<x>", 1))))), 400);
        assertThat((String) details(badKey).get("data")).contains("'<x>' at data.ok[0]");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "A", "data", Map.of("a b", 1))), 400))).containsOnlyKeys("data");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "A", "data", Map.of("x", "y".repeat(70_000)))), 400))).containsOnlyKeys("data");
        // 10 tags of 30 characters and a 200-character name are fine
        List<String> tenTags = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tenTags.add(String.valueOf(i).repeat(30));
        }
        assertThat(createIntent(flow, Map.of("name", "y".repeat(200), "tags", tenTags)).get("tags")).isEqualTo(tenTags);
    }

    @Test
    void givenAMalformedOrMissingBody_whenCreating_then400Or415() {
        // given
        Flow flow = newFlow();
        // when / then
        http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": ").exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("not valid JSON"));
        http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isBadRequest();
        http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY).contentType(MediaType.TEXT_PLAIN)
                .bodyValue("name=x").exchange().expectStatus().isEqualTo(415);
    }

    @Test
    void givenAnIntent_whenCreatingAnotherWithTheSameNameInAnotherCase_thenConflictButAnotherFlowMayUseIt() {
        // given
        Flow flow = newFlow();
        String first = intentNamed(flow, "Order pizza");
        // when
        Map<String, Object> problem = json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "ORDER PIZZA")), 409);
        // then
        assertThat(problem.get("code")).isEqualTo("1004");
        assertThat((String) problem.get("detail")).contains("unique per flow", first);
        assertThat(details(problem)).containsEntry("conflictsWith", first);
        intentNamed(newFlow(), "Order pizza");
    }

    @Test
    void givenParentsOutsideTheFlow_whenCreatingAChild_then400NamingParentIntentId() {
        // given
        Flow flow = newFlow();
        String elsewhere = intentNamed(newFlow(), "Elsewhere");
        // when / then
        Map<String, Object> problem = json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY,
                Map.of("name", "Child", "parentIntentId", elsewhere)), 400);
        assertThat((String) details(problem).get("parentIntentId")).contains("not an intent of flow " + flow.id());
        json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY, Map.of("name", "Child", "parentIntentId", Ids.newId())),
                400);
    }

    @Test
    void givenUnknownForeignOrMalformedFlows_whenCreating_then404Or400() {
        // given
        Flow mine = newFlow();
        String otherKey = otherOrganisationKey("intent-thief-" + Ids.newId() + "@example.com");
        // when / then
        json(send(HttpMethod.POST, "/v2.0/flows/" + Ids.newId() + "/intents", ADMIN_KEY, Map.of("name", "X")), 404);
        Map<String, Object> foreign = json(send(HttpMethod.POST, intentsOf(mine), otherKey, Map.of("name", "X")), 404);
        assertThat(foreign).containsEntry("code", "1000").containsKey("logLevel");
        Map<String, Object> malformed = json(send(HttpMethod.POST, "/v2.0/flows/NOT-AN-ID/intents", ADMIN_KEY,
                Map.of("name", "X")), 400);
        assertThat(details(malformed)).containsKey("flowId");
    }

    @Test
    void givenSentenceGenerationIsAskedFor_whenCreating_then501OrA400ForMalformedParameters() {
        // given
        Flow flow = newFlow();
        // when / then
        Map<String, Object> problem = json(send(HttpMethod.POST, intentsOf(flow) + "?shouldGenerateSentences=true",
                ADMIN_KEY, Map.of("name", "X")), 501);
        assertThat(problem.get("code")).isEqualTo("1009");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow) + "?shouldGenerateSentences=maybe", ADMIN_KEY,
                Map.of("name", "X")), 400))).containsKey("shouldGenerateSentences");
        assertThat(details(json(send(HttpMethod.POST, intentsOf(flow) + "?generateSentenceLimit=50", ADMIN_KEY,
                Map.of("name", "X")), 400))).containsKey("generateSentenceLimit");
        json(send(HttpMethod.POST, intentsOf(flow) + "?shouldGenerateSentences=false", ADMIN_KEY, Map.of("name", "X")),
                201);
    }

    @Test
    void givenAnyAcceptedMediaType_whenCreating_thenTheAnswerUsesItAndAnUnknownOneIs406BeforeAnythingIsStored() {
        // given
        Flow flow = newFlow();
        // when / then
        String xml = http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_XML)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Xml"))
                .exchange().expectStatus().isCreated().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<intent>").contains("<name>Xml</name>");
        http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY).accept(MediaType.parseMediaType("application/hal+json"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Hal"))
                .exchange().expectStatus().isCreated().expectBody().jsonPath("$._links.self.href").exists();
        long before = eventCount();
        http.post().uri(intentsOf(flow)).header("X-API-Key", ADMIN_KEY).accept(MediaType.APPLICATION_PDF)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "Pdf"))
                .exchange().expectStatus().isEqualTo(406);
        assertThat(eventCount()).isEqualTo(before);
    }

    // ---- update

    @Test
    void givenAnIntent_whenPatched_then200WithTheFullUpdatedRecord() {
        // given
        Flow flow = newFlow();
        Map<String, Object> created = createIntent(flow, Map.of("name", "Order pizza"));
        String id = (String) created.get("_id");
        // when
        var response = send(HttpMethod.PATCH, intentsOf(flow) + "/" + id, ADMIN_KEY,
                Map.of("name", "Order a pizza", "tags", List.of("food"), "isDisabled", true, "data", Map.of("a", 1),
                        "childFeatures", true, "biasTowardsParentOrChildIntents", "parents"));
        // then
        Map<String, Object> updated = response.expectStatus().isOk()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(updated).containsEntry("_id", id).containsEntry("name", "Order a pizza")
                .containsEntry("tags", List.of("food")).containsEntry("isDisabled", true)
                .containsEntry("data", Map.of("a", 1)).containsEntry("childFeatures", true)
                .containsEntry("biasTowardsParentOrChildIntents", "parents")
                .containsEntry("referenceId", created.get("referenceId"))
                .containsEntry("createdAt", created.get("createdAt"))
                .containsEntry("localeReference", flow.primaryLocaleId());
        // An empty PATCH changes nothing and answers the current record.
        assertThat(patchIntent(flow, id, Map.of(), 200)).isEqualTo(updated);
        // An explicit null clears the bias.
        Map<String, Object> clear = new HashMap<>();
        clear.put("biasTowardsParentOrChildIntents", null);
        assertThat(patchIntent(flow, id, clear, 200).get("biasTowardsParentOrChildIntents")).isNull();
    }

    @Test
    void givenAnInvalidPatch_whenSent_then400NamingEveryFieldAndNothingChanges() {
        // given
        Flow flow = newFlow();
        String id = intentNamed(flow, "Stable");
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("name", null);
        body.put("tags", "food");
        body.put("localeId", "nope");
        body.put("_id", id);
        // when
        Map<String, Object> problem = patchIntent(flow, id, body, 400);
        // then
        assertThat(details(problem)).containsOnlyKeys("name", "tags", "localeId", "_id");
        assertThat(eventCount()).isEqualTo(before);
    }

    @Test
    void givenTwoIntents_whenRenamingOneToTheOthersNameInAnotherCase_then409() {
        // given
        Flow flow = newFlow();
        intentNamed(flow, "Greeting");
        String other = intentNamed(flow, "Farewell");
        // when / then
        assertThat((String) patchIntent(flow, other, Map.of("name", "GREETING"), 409).get("detail"))
                .contains("'Greeting'");
        assertThat(patchIntent(flow, other, Map.of("name", "FAREWELL"), 200).get("name")).isEqualTo("FAREWELL");
    }

    @Test
    void givenAParentChain_whenATreeChangeWouldFormACycle_then409NamingTheCycleAndSelfOrForeignParentsAre400() {
        // given: c -> b -> a
        Flow flow = newFlow();
        String a = intentNamed(flow, "A");
        String b = childOf(flow, a, "B");
        String c = childOf(flow, b, "C");
        String elsewhere = intentNamed(newFlow(), "Elsewhere");
        // when / then
        Map<String, Object> cycle = patchIntent(flow, a, Map.of("parentIntentId", c), 409);
        assertThat((String) cycle.get("detail")).contains(a + " -> " + c + " -> " + b + " -> " + a);
        assertThat(details(cycle)).containsEntry("cycle", List.of(a, c, b, a));
        assertThat(details(patchIntent(flow, a, Map.of("parentIntentId", a), 400))).containsKey("parentIntentId");
        assertThat(details(patchIntent(flow, a, Map.of("parentIntentId", elsewhere), 400))).containsKey("parentIntentId");
        // Moving c to the root and making it a's parent is fine.
        Map<String, Object> root = new HashMap<>();
        root.put("parentIntentId", null);
        assertThat(patchIntent(flow, c, root, 200).get("parentIntentId")).isNull();
        assertThat(patchIntent(flow, a, Map.of("parentIntentId", c), 200).get("parentIntentId")).isEqualTo(c);
    }

    @Test
    void givenConcurrentParentChanges_whenTwoIntentsAreMadeEachOthersParentAtOnce_thenNeverBothSucceed() throws Exception {
        // given
        Flow flow = newFlow();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                String a = intentNamed(flow, "A" + round);
                String b = intentNamed(flow, "B" + round);
                CountDownLatch start = new CountDownLatch(1);
                // when
                Future<Integer> first = pool.submit(() -> {
                    start.await();
                    return parentStatus(flow, a, b);
                });
                Future<Integer> second = pool.submit(() -> {
                    start.await();
                    return parentStatus(flow, b, a);
                });
                start.countDown();
                List<Integer> statuses = new ArrayList<>(List.of(first.get(), second.get()));
                Collections.sort(statuses);
                // then: one wins, the other sees the cycle
                assertThat(statuses).as("round " + round).containsExactly(200, 409);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private int parentStatus(Flow flow, String intentId, String parentId) {
        return send(HttpMethod.PATCH, intentsOf(flow) + "/" + intentId, ADMIN_KEY, Map.of("parentIntentId", parentId))
                .returnResult(String.class).getStatus().value();
    }

    @Test
    void givenSentencesInSeveralLocales_whenPatchingWithALocaleId_thenLocaleReferenceFollowsTheFallbackRule() {
        // given: de falls back to fr; the intent has sentences in fr only
        Flow flow = newFlow();
        String fr = (String) createLocale(flow.projectId(), "French", "fr-FR", null).get("_id");
        String de = (String) createLocale(flow.projectId(), "German", "de-DE", fr).get("_id");
        String foreign = (String) createProject(ADMIN_KEY, "Foreign", "en-US").get("primaryLocaleReference");
        String id = intentNamed(flow, "Localized");
        addSentence(flow, id, fr, "Une pizza");
        // when / then
        assertThat(patchIntent(flow, id, Map.of("localeId", fr), 200).get("localeReference")).isEqualTo(fr);
        assertThat(patchIntent(flow, id, Map.of("localeId", de), 200).get("localeReference")).isEqualTo(fr);
        assertThat(patchIntent(flow, id, Map.of(), 200).get("localeReference")).isEqualTo(flow.primaryLocaleId());
        assertThat((String) details(patchIntent(flow, id, Map.of("localeId", foreign), 400)).get("localeId"))
                .contains("not a locale of this flow's project");
    }

    @Test
    void givenIntentsOutOfReach_whenPatched_then404AndMalformedIdsAre400() {
        // given
        Flow flow = newFlow();
        Flow otherFlow = newFlow();
        String id = intentNamed(flow, "Mine");
        String otherKey = otherOrganisationKey("intent-patcher-" + Ids.newId() + "@example.com");
        // when / then
        patchIntent(flow, Ids.newId(), Map.of("name", "x"), 404);
        json(send(HttpMethod.PATCH, intentsOf(otherFlow) + "/" + id, ADMIN_KEY, Map.of("name", "x")), 404);
        json(send(HttpMethod.PATCH, intentsOf(flow) + "/" + id, otherKey, Map.of("name", "stolen")), 404);
        assertThat(details(json(send(HttpMethod.PATCH, intentsOf(flow) + "/BAD", ADMIN_KEY, Map.of("name", "x")), 400)))
                .containsKey("intentId");
        assertThat(patchIntent(flow, id, Map.of(), 200).get("name")).isEqualTo("Mine");
    }

    // ---- delete

    @Test
    void givenAParentWithChildren_whenDeleted_then204AndTheChildrenBecomeRootsInTheSameTransaction() {
        // given: grandchild -> child -> parent; other -> parent
        Flow flow = newFlow();
        String parent = intentNamed(flow, "Parent");
        String child = childOf(flow, parent, "Child");
        String grandchild = childOf(flow, child, "Grandchild");
        String other = childOf(flow, parent, "Other");
        long detachedBefore = eventsOfType("IntentUpdatedEvent");
        // when
        http.delete().uri(intentsOf(flow) + "/" + parent).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive());
        // then
        assertThat(patchIntent(flow, child, Map.of(), 200).get("parentIntentId")).isNull();
        assertThat(patchIntent(flow, other, Map.of(), 200).get("parentIntentId")).isNull();
        assertThat(patchIntent(flow, grandchild, Map.of(), 200).get("parentIntentId")).isEqualTo(child);
        assertThat(eventsOfType("IntentUpdatedEvent") - detachedBefore).isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_lookup WHERE parent_intent_id = ?", Integer.class,
                parent)).isZero();
        // The name is free again, and the intent is gone.
        intentNamed(flow, "Parent");
        patchIntent(flow, parent, Map.of(), 404);
        http.delete().uri(intentsOf(flow) + "/" + parent).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound();
    }

    @Test
    void givenIntentsOutOfReach_whenDeleted_then404() {
        // given
        Flow flow = newFlow();
        String id = intentNamed(flow, "Keep me");
        String otherKey = otherOrganisationKey("intent-deleter-" + Ids.newId() + "@example.com");
        // when / then
        http.delete().uri(intentsOf(flow) + "/" + id).header("X-API-Key", otherKey).exchange().expectStatus().isNotFound();
        http.delete().uri(intentsOf(newFlow()) + "/" + id).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound();
        http.delete().uri(intentsOf(flow) + "/" + Ids.newId()).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNotFound();
        assertThat(patchIntent(flow, id, Map.of(), 200).get("name")).isEqualTo("Keep me");
    }

    @Test
    void givenADeletedFlow_whenAnyCommandReachesOneOfItsIntents_then404() {
        // given
        Flow flow = newFlow();
        String id = intentNamed(flow, "Orphan");
        String sentence = (String) addSentence(flow, id, flow.primaryLocaleId(), "hello").get("_id");
        // when
        deleteFlow(flow);
        // then
        assertThat((String) patchIntent(flow, id, Map.of("name", "x"), 404).get("detail")).contains(flow.id());
        json(send(HttpMethod.POST, intentsOf(flow), ADMIN_KEY, Map.of("name", "New")), 404);
        json(send(HttpMethod.POST, intentsOf(flow) + "/" + id + "/sentences", ADMIN_KEY,
                Map.of("text", "hi", "localeId", flow.primaryLocaleId())), 404);
        json(send(HttpMethod.PATCH, intentsOf(flow) + "/" + id + "/sentences/" + sentence, ADMIN_KEY,
                Map.of("text", "hi")), 404);
        http.delete().uri(intentsOf(flow) + "/" + id).header("X-API-Key", ADMIN_KEY).exchange().expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_lookup WHERE flow_id = ?", Integer.class,
                flow.id())).isZero();
    }

    @Test
    void givenADeletedProject_whenItsIntentsAreAddressed_then404AndTheLookupsForgetThem() {
        // given
        Flow flow = newFlow();
        String id = intentNamed(flow, "Gone with the project");
        // when
        http.delete().uri("/v2.0/projects/{id}", flow.projectId()).header("X-API-Key", ADMIN_KEY).exchange()
                .expectStatus().isNoContent();
        // then
        patchIntent(flow, id, Map.of("name", "x"), 404);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_lookup WHERE intent_id = ?", Integer.class, id))
                .isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_locale WHERE project_id = ?", Integer.class,
                flow.projectId())).isZero();
    }
}
