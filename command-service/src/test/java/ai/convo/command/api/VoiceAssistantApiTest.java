package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.voiceassistant.VoiceAssistant;
import ai.convo.contract.voiceassistant.VoiceAssistantAccountId;
import ai.convo.http.media.Renderer;
import ai.convo.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The Alexa account over real HTTP: POST /v2.0/external/alexa/users links the caller's account, DELETE
 * .../users/me (the specification's operation) unlinks it and erases its tokens from the log for good.
 */
class VoiceAssistantApiTest extends ApiTestBase {

    private static final String LINK = "/v2.0/external/alexa/users";
    private static final String ME = "/v2.0/external/alexa/users/me";
    private static final String LINKED = "ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent";
    private static final String UNLINKED = "ai.convo.contract.voiceassistant.VoiceAssistantUnlinkedEvent";

    /** A user of their own organisation, with every credential they can present. */
    record User(String email, String password, String apiKey, String id) {
        String accountId() {
            return VoiceAssistantAccountId.of(VoiceAssistant.ALEXA, id).value();
        }
    }

    enum Scheme { API_KEY_HEADER, API_KEY_QUERY, CONTACT_CENTER, BASIC, BEARER }

    private User newUser() {
        String email = "alexa-" + UUID.randomUUID() + "@example.com";
        String key = otherOrganisationKey(email);
        String id = jdbc.queryForObject("SELECT id FROM identity_user WHERE email = ?", String.class, email);
        return new User(email, "password-" + email, key, id);
    }

    private static String uri(String path, User user, Scheme scheme) {
        return scheme == Scheme.API_KEY_QUERY ? path + "?api_key=" + user.apiKey() : path;
    }

    private static Consumer<HttpHeaders> credentials(User user, Scheme scheme) {
        return h -> {
            switch (scheme) {
                case API_KEY_HEADER -> h.set("X-API-Key", user.apiKey());
                case API_KEY_QUERY -> { }
                case CONTACT_CENTER -> h.set("x-contactcenter-authorization", "Bearer " + TestTokens.contactCenter(user.id()));
                case BASIC -> h.set("Authorization", basic(user.email(), user.password()));
                case BEARER -> h.set("Authorization", "Bearer " + TestTokens.bearer(user.id()));
            }
        };
    }

    private WebTestClient.ResponseSpec link(User user, Scheme scheme, Object body) {
        return http.post().uri(uri(LINK, user, scheme)).headers(credentials(user, scheme))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private WebTestClient.ResponseSpec link(User user, Object body) {
        return link(user, Scheme.API_KEY_HEADER, body);
    }

    private WebTestClient.ResponseSpec unlink(User user, Scheme scheme) {
        return http.delete().uri(uri(ME, user, scheme)).headers(credentials(user, scheme)).exchange();
    }

    private static Map<String, Object> tokens(String access, String refresh) {
        return Map.of("accessToken", access, "refreshToken", refresh);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> linked(User user, String access, String refresh) {
        return link(user, tokens(access, refresh)).expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
    }

    private List<String> keyRows(User user) {
        return jdbc.queryForList("SELECT link_id FROM voice_assistant_link_key WHERE account_id = ?", String.class,
                user.accountId());
    }

    private List<String> eventTypes(User user) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number", String.class, user.accountId());
    }

    private static String randomToken(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "") + UUID.randomUUID().toString().replace("-", "");
    }

    // ---- link

    @Test
    void givenAUser_whenLinking_then201WithTheLinkButNeverItsTokens() {
        // given
        User user = newUser();
        String access = randomToken("Atza|");
        String refresh = randomToken("Atzr|");
        // when
        var result = link(user, tokens(access, refresh))
                // then
                .expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().location("/new/v2.0/external/alexa/users/me")
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody(String.class).returnResult();
        String raw = result.getResponseBody();
        assertThat(raw).doesNotContain(access, refresh);
        JsonNode body = Renderer.JSON.readTree(raw);
        assertThat(body.propertyNames()).containsExactly("_id", "userId", "organisationId", "voiceAssistant",
                "accessToken", "refreshToken", "createdAt", "lastChanged", "createdBy", "lastChangedBy");
        assertThat(body.get("accessToken").stringValue()).isEqualTo("********");
        assertThat(body.get("refreshToken").stringValue()).isEqualTo("********");
        assertThat(body.get("_id").stringValue()).matches("^[a-z0-9]{24}$");
        assertThat(body.get("userId").stringValue()).isEqualTo(user.id());
        assertThat(body.get("voiceAssistant").stringValue()).isEqualTo("alexa");
        assertThat(body.get("createdBy").stringValue()).isEqualTo(user.id());
        assertThat(keyRows(user)).containsExactly(body.get("_id").stringValue());
        assertThat(eventTypes(user)).containsExactly(LINKED);
    }

    @ParameterizedTest
    @EnumSource(Scheme.class)
    void givenEachOfTheFiveSchemes_whenLinkingAndUnlinking_then201And204(Scheme scheme) {
        // given
        User user = newUser();
        // when / then
        link(user, scheme, tokens("access-" + scheme, "refresh-" + scheme)).expectStatus().isCreated()
                .expectBody().jsonPath("$.userId").isEqualTo(user.id());
        unlink(user, scheme).expectStatus().isNoContent()
                .expectHeader().value("X-Event-Position", p -> assertThat(Long.parseLong(p)).isPositive())
                .expectBody().isEmpty();
        assertThat(keyRows(user)).isEmpty();
        assertThat(eventTypes(user)).containsExactly(LINKED, UNLINKED);
    }

    @Test
    void givenNoOrInvalidCredentials_whenLinkingOrUnlinking_then401() {
        http.post().uri(LINK).contentType(MediaType.APPLICATION_JSON).bodyValue(tokens("a", "r")).exchange()
                .expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("401")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("X-API-Key", "Basic", "Bearer"));
        http.delete().uri(ME).exchange().expectStatus().isUnauthorized();
        http.delete().uri(ME).header("X-API-Key", "not-a-key").exchange().expectStatus().isUnauthorized();
        http.delete().uri(ME).header("Authorization", "Bearer " + TestTokens.forgedBearer(adminUserId())).exchange()
                .expectStatus().isUnauthorized();
        http.delete().uri(ME).header("Authorization", "Bearer " + TestTokens.expiredBearer(adminUserId())).exchange()
                .expectStatus().isUnauthorized();
    }

    @Test
    void givenALink_whenLinkingAgain_thenItIsReplacedAndTheOldKeyIsGone() {
        // given
        User user = newUser();
        String first = (String) linked(user, "access-1", "refresh-1").get("_id");
        // when
        String second = (String) linked(user, "access-2", "refresh-2").get("_id");
        // then
        assertThat(second).isNotEqualTo(first);
        assertThat(keyRows(user)).containsExactly(second);
        assertThat(eventTypes(user)).containsExactly(LINKED, UNLINKED, LINKED);
        String reason = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND sequence_number = 1", String.class, user.accountId());
        assertThat(reason).contains("\"reason\":\"replaced\"", first);
    }

    @Test
    void givenALinkThatWasUnlinked_whenLinkingAgain_thenLinkedAndUnlinkableAgain() {
        // given
        User user = newUser();
        linked(user, "a1", "r1");
        unlink(user, Scheme.API_KEY_HEADER).expectStatus().isNoContent();
        // when
        String again = (String) linked(user, "a2", "r2").get("_id");
        // then
        assertThat(keyRows(user)).containsExactly(again);
        unlink(user, Scheme.API_KEY_HEADER).expectStatus().isNoContent();
        assertThat(eventTypes(user)).containsExactly(LINKED, UNLINKED, LINKED, UNLINKED);
    }

    @Test
    void givenOneUser_whenLinkingFromSeveralClientsAtOnce_thenEach201Or409AndExactlyTheLastLinksKeyIsLeft() {
        // given
        User user = newUser();
        // when
        List<Integer> statuses = reactor.core.publisher.Flux.range(0, 6)
                .flatMap(i -> org.springframework.web.reactive.function.client.WebClient.create(
                                "http://localhost:" + environment.getProperty("local.server.port") + "/new")
                        .post().uri(LINK).header("X-API-Key", user.apiKey()).contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(tokens("access-" + i, "refresh-" + i))
                        .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value())))
                .collectList().block(java.time.Duration.ofSeconds(60));
        // then
        assertThat(statuses).hasSize(6).allMatch(s -> s == 201 || s == 409).contains(201);
        List<String> linkedIds = new ArrayList<>();
        for (byte[] payload : jdbc.queryForList("SELECT payload FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "AND payload_type = ? ORDER BY sequence_number", byte[].class, user.accountId(), LINKED)) {
            linkedIds.add(Renderer.JSON.readTree(payload).get("linkId").stringValue());
        }
        assertThat(linkedIds).hasSize((int) statuses.stream().filter(s -> s == 201).count());
        assertThat(keyRows(user)).containsExactly(linkedIds.get(linkedIds.size() - 1));
    }

    @Test
    void givenTheLongestAllowedTokens_whenLinking_then201() {
        User user = newUser();
        link(user, tokens("a".repeat(4096), "r".repeat(4096))).expectStatus().isCreated();
    }

    @Test
    void givenAnInvalidBody_whenLinking_then400NamingEveryFieldAndNothingStored() {
        // given
        User user = newUser();
        long before = eventCount();
        Map<String, Object> body = new HashMap<>();
        body.put("accessToken", "");
        body.put("refreshToken", 42);
        body.put("userId", "someone-else");
        // when / then
        link(user, body).expectStatus().isBadRequest()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.code").isEqualTo("1000")
                .jsonPath("$.details.accessToken").exists()
                .jsonPath("$.details.refreshToken").exists()
                .jsonPath("$.details.userId").value(d -> assertThat((String) d).contains("accessToken, refreshToken"));
        link(user, Map.of()).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.accessToken").value(d -> assertThat((String) d).contains("required"))
                .jsonPath("$.details.refreshToken").exists();
        link(user, tokens("   ", "r")).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.accessToken").value(d -> assertThat((String) d).contains("not blank"));
        link(user, tokens("a", "r".repeat(4097))).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.refreshToken").value(d -> assertThat((String) d).contains("1 to 4096"));
        Map<String, Object> nulls = new HashMap<>();
        nulls.put("accessToken", null);
        nulls.put("refreshToken", List.of("r"));
        link(user, nulls).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.details.accessToken").exists().jsonPath("$.details.refreshToken").exists();
        http.post().uri(LINK).header("X-API-Key", user.apiKey()).contentType(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isBadRequest();
        http.post().uri(LINK).header("X-API-Key", user.apiKey()).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"accessToken\":").exchange().expectStatus().isBadRequest();
        http.post().uri(LINK).header("X-API-Key", user.apiKey()).contentType(MediaType.TEXT_PLAIN)
                .bodyValue("accessToken=a").exchange().expectStatus().isEqualTo(415);
        // then
        assertThat(eventCount()).isEqualTo(before);
        assertThat(keyRows(user)).isEmpty();
    }

    @Test
    void givenAnUnknownVoiceAssistant_whenLinkingOrUnlinking_then404NamingTheSupportedOne() {
        User user = newUser();
        long before = eventCount();
        http.post().uri("/v2.0/external/siri/users").header("X-API-Key", user.apiKey())
                .contentType(MediaType.APPLICATION_JSON).bodyValue(tokens("a", "r")).exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.logLevel").exists()
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("'siri'", "alexa"));
        http.delete().uri("/v2.0/external/Alexa/users/me").header("X-API-Key", user.apiKey()).exchange()
                .expectStatus().isNotFound();
        assertThat(eventCount()).isEqualTo(before);
    }

    // ---- unlink (the specification's DELETE)

    @Test
    void givenNoLink_whenUnlinking_then404AndTwiceStill404() {
        // given
        User user = newUser();
        // when / then
        unlink(user, Scheme.API_KEY_HEADER).expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.code").isEqualTo("1000").jsonPath("$.logLevel").exists()
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("No alexa account is linked"));
        linked(user, "a", "r");
        unlink(user, Scheme.API_KEY_HEADER).expectStatus().isNoContent();
        unlink(user, Scheme.API_KEY_HEADER).expectStatus().isNotFound();
        assertThat(eventTypes(user)).containsExactly(LINKED, UNLINKED);
    }

    @Test
    void givenALink_whenUnlinkingWithAnUnacceptableAcceptHeader_then406AndTheLinkStays() {
        // given
        User user = newUser();
        String linkId = (String) linked(user, "a", "r").get("_id");
        // when / then
        http.delete().uri(ME).header("X-API-Key", user.apiKey()).accept(MediaType.TEXT_PLAIN).exchange()
                .expectStatus().isEqualTo(406);
        assertThat(keyRows(user)).containsExactly(linkId);
        http.delete().uri(ME).header("X-API-Key", user.apiKey()).accept(MediaType.APPLICATION_XML).exchange()
                .expectStatus().isNoContent();
        assertThat(keyRows(user)).isEmpty();
    }

    @Test
    void givenAnotherOrganisationsUserIsLinked_whenAStrangerUnlinks_then404AndTheLinkStays() {
        // given
        User owner = newUser();
        User stranger = newUser();
        String linkId = (String) linked(owner, "owner-access", "owner-refresh").get("_id");
        // when / then: "me" is always the caller, so the stranger has nothing to delete
        unlink(stranger, Scheme.API_KEY_HEADER).expectStatus().isNotFound();
        unlink(stranger, Scheme.BEARER).expectStatus().isNotFound();
        assertThat(keyRows(owner)).containsExactly(linkId);
        assertThat(eventTypes(owner)).containsExactly(LINKED);
        unlink(owner, Scheme.API_KEY_HEADER).expectStatus().isNoContent();
    }

    // ---- crypto-erasure

    @Test
    void givenALinkedAccount_whenItIsUnlinked_thenNoTraceOfEitherTokenIsLeftInTheLogSnapshotsOrAnyTable() {
        // given: tokens that appear nowhere else
        User user = newUser();
        String access = randomToken("Atza|IwEB");
        String refresh = randomToken("Atzr|IwEB");
        String linkId = (String) linked(user, access, refresh).get("_id");
        // the log holds them sealed, and while the key exists they open: the check below reads the right rows
        byte[] key = jdbc.queryForObject("SELECT key_bytes FROM voice_assistant_link_key WHERE link_id = ?",
                byte[].class, linkId);
        JsonNode event = Renderer.JSON.readTree(jdbc.queryForObject("SELECT payload FROM domain_event_entry "
                + "WHERE aggregate_identifier = ? AND payload_type = ?", byte[].class, user.accountId(), LINKED));
        assertThat(event.get("linkId").stringValue()).isEqualTo(linkId);
        assertThat(open(key, linkId, "accessToken", event.get("accessToken"))).isEqualTo(access);
        assertThat(open(key, linkId, "refreshToken", event.get("refreshToken"))).isEqualTo(refresh);
        assertThat(tracesIn(allRows(), access, refresh)).as("only the key table may hold them, as a key").isEmpty();

        // when
        unlink(user, Scheme.API_KEY_HEADER).expectStatus().isNoContent();

        // then: the key is gone, and nothing anywhere shows either token
        assertThat(keyRows(user)).isEmpty();
        List<String> log = new ArrayList<>();
        log.addAll(jdbc.queryForList("SELECT encode(payload, 'escape') || ' ' || coalesce(encode(meta_data, 'escape'), '') "
                + "FROM domain_event_entry", String.class));
        log.addAll(jdbc.queryForList("SELECT encode(payload, 'escape') || ' ' || coalesce(encode(meta_data, 'escape'), '') "
                + "FROM snapshot_entry", String.class));
        assertThat(log).anyMatch(row -> row.contains(linkId));
        assertThat(tracesIn(log, access, refresh)).isEmpty();
        assertThat(tracesIn(allRows(), access, refresh)).isEmpty();
        // and the account's history still loads (replays) without its key: it links again
        linked(user, "new-access", "new-refresh");
    }

    @Test
    void theTraceSearchFindsATokenInClearBase64AndHexAtAnyOffset() {
        // The erasure check is only as good as its search: it must see each encoding it claims to look for.
        String token = "Atza|some-token-value-0123456789";
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        for (int shift = 0; shift < 3; shift++) {
            byte[] shifted = new byte[shift + bytes.length + 2];
            System.arraycopy(bytes, 0, shifted, shift, bytes.length);
            assertThat(tracesIn(List.of("x" + Base64.getEncoder().encodeToString(shifted) + "y"), token)).isNotEmpty();
            assertThat(tracesIn(List.of(Base64.getUrlEncoder().encodeToString(shifted)), token)).isNotEmpty();
        }
        assertThat(tracesIn(List.of("\\x00" + HexFormat.of().formatHex(bytes) + "ff"), token)).isNotEmpty();
        assertThat(tracesIn(List.of("{\"t\":\"" + token + "\"}"), token)).isNotEmpty();
        assertThat(tracesIn(List.of("nothing here"), token)).isEmpty();
    }

    /** Every row of every table, as PostgreSQL renders it as text (bytea as hex). */
    private List<String> allRows() {
        List<String> rows = new ArrayList<>();
        for (String table : jdbc.queryForList("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'", String.class)) {
            rows.addAll(jdbc.queryForList("SELECT t::text FROM \"" + table + "\" t", String.class));
        }
        return rows;
    }

    /** The forms of the tokens found in the rows: clear, hex, or base64 (standard or URL-safe) at any byte offset. */
    static List<String> tracesIn(List<String> rows, String... tokens) {
        List<String> found = new ArrayList<>();
        for (String token : tokens) {
            for (String form : forms(token)) {
                for (String row : rows) {
                    if (row != null && row.contains(form)) {
                        found.add(form);
                    }
                }
            }
        }
        return found;
    }

    private static List<String> forms(String token) {
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        List<String> forms = new ArrayList<>(List.of(token, HexFormat.of().formatHex(bytes),
                HexFormat.of().withUpperCase().formatHex(bytes)));
        for (int shift = 0; shift < 3; shift++) {
            byte[] shifted = new byte[shift + bytes.length];
            System.arraycopy(bytes, 0, shifted, shift, bytes.length);
            // Only the 4-character groups made of token bytes alone are the same wherever the token sits.
            int from = shift == 0 ? 0 : 4;
            int to = 4 * (shifted.length / 3);
            forms.add(Base64.getEncoder().encodeToString(shifted).substring(from, to));
            forms.add(Base64.getUrlEncoder().encodeToString(shifted).substring(from, to));
        }
        return forms;
    }

    /** AES-256-GCM, written out here so the test does not trust the code it checks. */
    private static String open(byte[] key, String linkId, String field, JsonNode sealed) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                    new GCMParameterSpec(128, Base64.getDecoder().decode(sealed.get("nonce").stringValue())));
            cipher.updateAAD((linkId + ":" + field).getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(Base64.getDecoder().decode(sealed.get("ciphertext").stringValue())),
                    StandardCharsets.UTF_8);
        } catch (Exception e) {
            throw new AssertionError("the sealed token does not open with its link's key", e);
        }
    }
}
