package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;

/**
 * exportIntents and importIntents through the real routes and the real task runner: files round-trip exactly, the
 * modes do what they say, and a file that cannot apply is a 400 with nothing stored.
 */
class IntentTransferApiTest extends SnapshotWorkSupport {

    // ---- helpers

    /** Runs an export to done and answers its file, read through the link its task names. */
    @SuppressWarnings("unchecked")
    private byte[] export(String key, String flowId, String localeId, String format) {
        Map<String, Object> task = accepted(key, "/v2.0/flows/" + flowId + "/intents/export",
                Map.of("localeId", localeId, "format", format));
        assertThat(task).containsEntry("type", "exportIntents");
        awaitDone((String) task.get("_id"));
        String file = (String) ((Map<String, Object>) task.get("parameters")).get("file");
        assertThat(file).isEqualTo("/new/v2.0/flows/" + flowId + "/intents/export/" + task.get("_id"));
        return http.get().uri(file.substring("/new".length())).header("X-API-Key", key).exchange()
                .expectStatus().isOk()
                .expectHeader().contentType(format.equals("csv") ? "text/csv;charset=utf-8" : "application/json")
                .expectBody(byte[].class).returnResult().getResponseBody();
    }

    private WebTestClient.ResponseSpec upload(String key, String flowId, String localeId, String mode, byte[] file) {
        MultipartBodyBuilder parts = new MultipartBodyBuilder();
        parts.part("localeId", localeId);
        parts.part("mode", mode);
        parts.part("file", new ByteArrayResource(file) {
            @Override
            public String getFilename() {
                return "intents.txt";
            }
        });
        return http.post().uri("/v2.0/flows/" + flowId + "/intents/import").header("X-API-Key", key)
                .contentType(MediaType.MULTIPART_FORM_DATA).body(BodyInserters.fromMultipartData(parts.build()))
                .exchange();
    }

    @SuppressWarnings("unchecked")
    private void importDone(String flowId, String localeId, String mode, byte[] file) {
        Map<String, Object> task = upload(ADMIN_KEY, flowId, localeId, mode, file).expectStatus().isAccepted()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(task).containsEntry("type", "importIntents");
        awaitDone((String) task.get("_id"));
    }

    private String newFlow(String projectId, String name) {
        return id(created(HttpMethod.POST, "/v2.0/flows", Map.of("projectId", projectId, "name", name)));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A flow whose intents hold what the CSV format must quote: commas, quotes, a line break, a semicolon. */
    private String trickyIntents(Built built) {
        String intents = "/v2.0/flows/" + built.flowId() + "/intents";
        String tricky = id(created(HttpMethod.POST, intents, Map.of("name", "Say, \"hi\"",
                "confirmationSentences", List.of("Did you say hi?"), "rules", List.of("a; b"),
                "childFeatures", List.of(built.parentIntentId()), "biasTowardsParentOrChildIntents", "children")));
        created(HttpMethod.POST, intents + "/" + tricky + "/sentences",
                Map.of("text", "hello,\n\"world\"", "localeId", built.primaryLocaleId()));
        created(HttpMethod.POST, intents + "/" + tricky + "/sentences",
                Map.of("text", " leading space", "localeId", built.primaryLocaleId()));
        return tricky;
    }

    // ---- round trips

    @Test
    void givenAFlowsIntents_whenExportedImportedIntoAnEmptyFlowAndExportedAgain_thenBothFormatsGiveTheSameFile() {
        // given: intents with a parent, childFeatures, data, tags, sentences in two locales and text CSV must quote
        Built built = buildProject("Round trip");
        trickyIntents(built);
        for (String format : List.of("json", "csv")) {
            // when: exported, imported into a new flow of the project, exported from there
            byte[] first = export(ADMIN_KEY, built.flowId(), built.primaryLocaleId(), format);
            String copy = newFlow(built.projectId(), "Copy " + format);
            importDone(copy, built.primaryLocaleId(), "skip", first);
            byte[] second = export(ADMIN_KEY, copy, built.primaryLocaleId(), format);
            // then: the same bytes
            assertThat(text(second)).as(format).isEqualTo(text(first));
        }
        String json = text(export(ADMIN_KEY, built.flowId(), built.primaryLocaleId(), "json"));
        assertThat(json).contains("\"parentIntentName\" : \"Order\"", "\"childFeatures\" : [ \"Order\" ]",
                "\"exampleSentences\" : [ \"hello,\\n\\\"world\\\"\", \" leading space\" ]")
                .doesNotContain("Ich will bestellen");
        String csv = text(export(ADMIN_KEY, built.flowId(), built.germanId(), "csv"));
        // confirmation sentences and rules are the intent's own, in every locale
        assertThat(csv).isEqualTo("Order,exampleSentence,Ich will bestellen\n"
                + "\"Say, \"\"hi\"\"\",confirmationSentence,Did you say hi?\n\"Say, \"\"hi\"\"\",rules,\"a; b\"\n");
    }

    @Test
    void givenACsvOfTheVendorsKind_whenImported_thenItsRowsBecomeIntentsWhateverTheDelimiter() {
        Built built = buildProject("Vendor CSV");
        String flow = newFlow(built.projectId(), "Imported");
        byte[] file = ("\uFEFFIntent1;exampleSentence;I want to go home\r\n"
                + "Intent1;confirmationSentence;Are you sure you want to go home?\r\n"
                + "\r\n"
                + "Intent2;exampleSentence;\"I want pizza; with cheese\"\r\n"
                + "Intent2;exampleSentence;I am hungry\r\n").getBytes(StandardCharsets.UTF_8);
        importDone(flow, built.primaryLocaleId(), "merge", file);
        assertThat(text(export(ADMIN_KEY, flow, built.primaryLocaleId(), "csv"))).isEqualTo(
                "Intent1,exampleSentence,I want to go home\n"
                + "Intent1,confirmationSentence,Are you sure you want to go home?\n"
                + "Intent2,exampleSentence,\"I want pizza; with cheese\"\n"
                + "Intent2,exampleSentence,I am hungry\n");
    }

    // ---- modes

    @Test
    void givenIntentsTheFlowHas_whenImportedInEachMode_thenSkipKeepsOverwriteReplacesMergeAdds() {
        // given: a flow with intent A (two sentences, a rule) in the primary locale and one in German
        Built built = buildProject("Modes");
        String flow = newFlow(built.projectId(), "Target");
        String intents = "/v2.0/flows/" + flow + "/intents";
        String a = id(created(HttpMethod.POST, intents, Map.of("name", "A", "rules", List.of("r1"),
                "description", "kept by merge")));
        for (String sentence : List.of("one", "two")) {
            created(HttpMethod.POST, intents + "/" + a + "/sentences", Map.of("text", sentence, "localeId",
                    built.primaryLocaleId()));
        }
        created(HttpMethod.POST, intents + "/" + a + "/sentences", Map.of("text", "eins", "localeId", built.germanId()));
        byte[] file = "a,exampleSentence,two\na,exampleSentence,three\na,rules,r2\nB,exampleSentence,bee\n"
                .getBytes(StandardCharsets.UTF_8);

        // when: skip, then: A unchanged, B created
        importDone(flow, built.primaryLocaleId(), "skip", file);
        assertThat(text(export(ADMIN_KEY, flow, built.primaryLocaleId(), "csv"))).isEqualTo(
                "A,exampleSentence,one\nA,exampleSentence,two\nA,rules,r1\nB,exampleSentence,bee\n");

        // when: merge, then: A gains what it lacks, nothing twice
        importDone(flow, built.primaryLocaleId(), "merge", file);
        assertThat(text(export(ADMIN_KEY, flow, built.primaryLocaleId(), "csv"))).isEqualTo(
                "A,exampleSentence,one\nA,exampleSentence,two\nA,exampleSentence,three\nA,rules,r1\nA,rules,r2\n"
                + "B,exampleSentence,bee\n");

        // when: overwrite, then: A is exactly the file's in this locale (its name's case too), German untouched
        importDone(flow, built.primaryLocaleId(), "overwrite", file);
        assertThat(text(export(ADMIN_KEY, flow, built.primaryLocaleId(), "csv"))).isEqualTo(
                "B,exampleSentence,bee\na,exampleSentence,two\na,exampleSentence,three\na,rules,r2\n");
        assertThat(text(export(ADMIN_KEY, flow, built.germanId(), "csv"))).isEqualTo("a,exampleSentence,eins\na,rules,r2\n");
        assertThat(text(export(ADMIN_KEY, flow, built.primaryLocaleId(), "json"))).contains("kept by merge");
    }

    // ---- refusals

    @Test
    void givenFilesThatCannotApply_whenUploaded_then400NamingWhyAndNoTask() {
        Built built = buildProject("Refusals");
        String flow = built.flowId();
        String locale = built.primaryLocaleId();
        long before = eventCount();
        upload(ADMIN_KEY, flow, locale, "skip", "A,defaultReply,Hi\n".getBytes()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("Row 1", "defaultReply", "exampleSentence, confirmationSentence, rules"));
        upload(ADMIN_KEY, flow, locale, "skip", "A,exampleSentence,\"open\n".getBytes()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("never closed"));
        upload(ADMIN_KEY, flow, locale, "skip", "[{\"name\":\"X\",\"parentIntentName\":\"Nowhere\"}]".getBytes())
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("'Nowhere'"));
        upload(ADMIN_KEY, flow, locale, "skip", ("[{\"name\":\"X\",\"parentIntentName\":\"Y\"},"
                + "{\"name\":\"Y\",\"parentIntentName\":\"X\"}]").getBytes()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("cycle"));
        upload(ADMIN_KEY, flow, locale, "skip", "[{\"name\":\"X\",\"colour\":\"red\"}]".getBytes())
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("colour unknown field"));
        upload(ADMIN_KEY, flow, locale, "skip", "A,exampleSentence,x\na,exampleSentence,y\n".getBytes())
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("only in case"));
        upload(ADMIN_KEY, flow, locale, "replace", "A,exampleSentence,x\n".getBytes()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("skip, overwrite, merge"));
        upload(ADMIN_KEY, flow, built.flowId(), "skip", "A,exampleSentence,x\n".getBytes()).expectStatus().isBadRequest();
        http.post().uri("/v2.0/flows/" + flow + "/intents/import").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of()).exchange().expectStatus().isEqualTo(415);
        http.post().uri("/v2.0/flows/" + flow + "/intents/export").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("localeId", locale, "format", "xlsx"))
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("csv, json"));
        assertThat(eventCount()).isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_import", Long.class)).isZero();
    }

    @Test
    void givenAnImportThatNoLongerApplies_whenItsTaskRuns_thenItFailsSayingWhyAndNothingIsImported() {
        // given: a file creating intents whose parent exists when uploaded ...
        Built built = buildProject("Stale");
        String flow = newFlow(built.projectId(), "Target");
        String parent = id(created(HttpMethod.POST, "/v2.0/flows/" + flow + "/intents", Map.of("name", "P")));
        byte[] file = "[{\"name\":\"C1\"},{\"name\":\"C2\",\"parentIntentName\":\"P\"}]".getBytes();
        // ... and deleted before the task plans (the staged file is planned again when the task runs)
        jdbc.update("INSERT INTO cmd_intent_import (task_id, content) VALUES ('aaaaaaaaaaaaaaaaaaaaaaaa', ?)",
                (Object) file);
        send(HttpMethod.DELETE, "/v2.0/flows/" + flow + "/intents/" + parent, null).expectStatus().isNoContent();
        long before = eventCount();
        // when
        RecordingTaskContext context = new RecordingTaskContext(built.projectId(), Map.of("flowId", flow, "localeId",
                built.primaryLocaleId(), "mode", "skip"), admin(), "aaaaaaaaaaaaaaaaaaaaaaaa");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> work("importIntents").run(context))
                .hasMessageContaining("'P'").hasMessageContaining("Nothing was imported");
        // then
        assertThat(eventCount()).isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM cmd_intent_import", Long.class)).isZero();
    }

    // ---- tenancy

    @Test
    void givenAnotherOrganisation_whenItExportsImportsOrReadsAnExport_then404() {
        Built built = buildProject("Tenancy");
        String other = otherOrganisationKey("intents-other@example.com");
        byte[] file = export(ADMIN_KEY, built.flowId(), built.primaryLocaleId(), "json");
        assertThat(file).isNotEmpty();
        http.post().uri("/v2.0/flows/" + built.flowId() + "/intents/export").header("X-API-Key", other)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("localeId", built.primaryLocaleId(), "format", "csv")).exchange()
                .expectStatus().isNotFound();
        upload(other, built.flowId(), built.primaryLocaleId(), "skip", file).expectStatus().isNotFound();
        String taskId = jdbc.queryForObject("SELECT task_id FROM cmd_intent_export WHERE flow_id = ?", String.class,
                built.flowId());
        http.get().uri("/v2.0/flows/" + built.flowId() + "/intents/export/" + taskId).header("X-API-Key", other)
                .exchange().expectStatus().isNotFound();
        http.get().uri("/v2.0/flows/" + built.flowId() + "/intents/export/" + taskId).exchange()
                .expectStatus().isUnauthorized();
    }
}
