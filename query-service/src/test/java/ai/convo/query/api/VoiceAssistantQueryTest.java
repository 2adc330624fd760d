package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.voiceassistant.SealedToken;
import ai.convo.contract.voiceassistant.VoiceAssistant;
import ai.convo.contract.voiceassistant.VoiceAssistantAccountId;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent;
import ai.convo.contract.voiceassistant.VoiceAssistantUnlinkedEvent;
import ai.convo.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** GET /v2.0/external/alexa/users/me: the caller's own link, its meta only, over every scheme. */
class VoiceAssistantQueryTest extends QueryTestBase {

    private static final String ME = "/v2.0/external/alexa/users/me";
    private static final SealedToken SEALED = new SealedToken(
            Base64.getEncoder().encodeToString("twelve-bytes".getBytes(StandardCharsets.UTF_8)),
            Base64.getEncoder().encodeToString("sealed-token-bytes-and-tag".getBytes(StandardCharsets.UTF_8)));

    enum Scheme { API_KEY_HEADER, API_KEY_QUERY, CONTACT_CENTER, BASIC, BEARER }

    private static String account(Caller caller) {
        return VoiceAssistantAccountId.of(VoiceAssistant.ALEXA, caller.userId()).value();
    }

    private long linked(Caller caller, String linkId, long at) {
        return append(account(caller), new VoiceAssistantLinkedEvent(account(caller), "alexa", caller.userId(),
                caller.organisationId(), linkId, "AES-256-GCM", SEALED, SEALED, caller.userId(), at));
    }

    private long unlinked(Caller caller, String linkId, String reason, long at) {
        return append(account(caller), new VoiceAssistantUnlinkedEvent(account(caller), "alexa", caller.userId(),
                caller.organisationId(), linkId, reason, caller.userId(), at));
    }

    private WebTestClient.ResponseSpec me(Caller caller, Scheme scheme, long position) {
        String uri = scheme == Scheme.API_KEY_QUERY ? ME + "?api_key=" + caller.apiKey() : ME;
        Consumer<HttpHeaders> credentials = h -> {
            switch (scheme) {
                case API_KEY_HEADER -> h.set("X-API-Key", caller.apiKey());
                case API_KEY_QUERY -> { }
                case CONTACT_CENTER -> h.set("x-contactcenter-authorization",
                        "Bearer " + TestTokens.contactCenter(caller.userId()));
                case BASIC -> h.setBasicAuth(caller.userId() + "@example.com", "pw-" + caller.userId());
                case BEARER -> h.setBearerAuth(TestTokens.bearer(caller.userId()));
            }
            h.set("X-Event-Position", Long.toString(position));
        };
        return http.get().uri(uri).headers(credentials).exchange();
    }

    private WebTestClient.ResponseSpec me(Caller caller, long position) {
        return me(caller, Scheme.API_KEY_HEADER, position);
    }

    @ParameterizedTest
    @EnumSource(Scheme.class)
    void givenALink_whenTheOwnerReadsItWithAnyScheme_thenItsMetaAndNeverItsTokens(Scheme scheme) {
        // given
        Caller caller = newOrganisation();
        String linkId = Ids.newId();
        long position = linked(caller, linkId, 1_700_000_000L);
        // when
        String raw = me(caller, scheme, position)
                // then
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(raw).doesNotContain(SEALED.ciphertext(), SEALED.nonce());
        @SuppressWarnings("unchecked")
        Map<String, Object> body = ai.convo.http.media.Renderer.JSON.readValue(raw, Map.class);
        assertThat(body).containsExactlyEntriesOf(new java.util.LinkedHashMap<>() {{
            put("_id", linkId);
            put("userId", caller.userId());
            put("organisationId", caller.organisationId());
            put("voiceAssistant", "alexa");
            put("accessToken", "********");
            put("refreshToken", "********");
            put("createdAt", 1_700_000_000);
            put("lastChanged", 1_700_000_000);
            put("createdBy", caller.userId());
            put("lastChangedBy", caller.userId());
        }});
    }

    @Test
    void givenNoLink_whenRead_then404NamingHowToLinkOne() {
        Caller caller = newOrganisation();
        me(caller, 0).expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.code").isEqualTo("1000").jsonPath("$.logLevel").exists()
                .jsonPath("$.detail").value(d -> assertThat((String) d)
                        .contains("No alexa account is linked", "POST /v2.0/external/alexa/users"));
    }

    @Test
    void givenALinkThatWasUnlinked_whenRead_then404AndAfterLinkingAgainTheNewLink() {
        // given
        Caller caller = newOrganisation();
        String first = Ids.newId();
        linked(caller, first, 100);
        long position = unlinked(caller, first, VoiceAssistantUnlinkedEvent.UNLINKED, 200);
        // when / then
        me(caller, position).expectStatus().isNotFound();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM voice_assistant_link_view WHERE user_id = ?",
                Integer.class, caller.userId())).isZero();
        String second = Ids.newId();
        position = linked(caller, second, 300);
        me(caller, position).expectStatus().isOk().expectBody().jsonPath("$._id").isEqualTo(second)
                .jsonPath("$.createdAt").isEqualTo(300);
    }

    @Test
    void givenALinkReplacedByANewOne_whenRead_thenTheNewOne() {
        Caller caller = newOrganisation();
        String first = Ids.newId();
        String second = Ids.newId();
        linked(caller, first, 100);
        unlinked(caller, first, VoiceAssistantUnlinkedEvent.REPLACED, 200);
        long position = linked(caller, second, 200);
        me(caller, position).expectStatus().isOk().expectBody().jsonPath("$._id").isEqualTo(second);
    }

    @Test
    void givenAnotherOrganisationsUserIsLinked_whenAStrangerReads_then404() {
        // given
        Caller owner = newOrganisation();
        Caller stranger = newOrganisation();
        long position = linked(owner, Ids.newId(), 100);
        // when / then: "me" is the caller; the owner's link is not theirs to see
        me(stranger, position).expectStatus().isNotFound();
        me(stranger, Scheme.BEARER, position).expectStatus().isNotFound();
        me(owner, position).expectStatus().isOk();
    }

    @Test
    void givenNoOrInvalidCredentials_whenRead_then401() {
        http.get().uri(ME).exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.code").isEqualTo("401")
                .jsonPath("$.detail").value(d -> assertThat((String) d).contains("X-API-Key", "Basic", "Bearer"));
        http.get().uri(ME).header("X-API-Key", "not-a-key").exchange().expectStatus().isUnauthorized();
        http.get().uri(ME).header("Authorization", "Bearer " + TestTokens.forgedBearer(Ids.newId())).exchange()
                .expectStatus().isUnauthorized();
    }

    @Test
    void givenAnUnknownVoiceAssistant_whenRead_then404NamingTheSupportedOne() {
        Caller caller = newOrganisation();
        http.get().uri("/v2.0/external/cortana/users/me").header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("'cortana'", "alexa"));
    }

    @Test
    void givenALink_whenReadAsHalOrXmlOrUnacceptable_thenThatFormOr406() {
        Caller caller = newOrganisation();
        long position = linked(caller, Ids.newId(), 100);
        http.get().uri(ME).header("X-API-Key", caller.apiKey()).header("X-Event-Position", Long.toString(position))
                .accept(MediaType.parseMediaType("application/hal+json")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$._links.self.href")
                .isEqualTo("/new/v2.0/external/alexa/users/me");
        String xml = http.get().uri(ME).header("X-API-Key", caller.apiKey()).accept(MediaType.APPLICATION_XML)
                .exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(xml).startsWith("<voiceAssistantLink>").contains("<voiceAssistant>alexa</voiceAssistant>");
        http.get().uri(ME).header("X-API-Key", caller.apiKey()).accept(MediaType.TEXT_PLAIN).exchange()
                .expectStatus().isEqualTo(406);
    }
}
