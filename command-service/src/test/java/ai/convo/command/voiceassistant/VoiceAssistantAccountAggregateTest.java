package ai.convo.command.voiceassistant;

import static ai.convo.command.token.DomainErrors.domainError;
import static ai.convo.command.token.DomainErrors.invalidField;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.voiceassistant.LinkVoiceAssistantCommand;
import ai.convo.contract.voiceassistant.SealedToken;
import ai.convo.contract.voiceassistant.UnlinkVoiceAssistantCommand;
import ai.convo.contract.voiceassistant.VoiceAssistant;
import ai.convo.contract.voiceassistant.VoiceAssistantAccountId;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkRecord;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent;
import ai.convo.contract.voiceassistant.VoiceAssistantUnlinkedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.SecretKey;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.matchers.Matchers;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The write model of a user's voice-assistant account, in given (past events) / when (command) / then (events or error). */
class VoiceAssistantAccountAggregateTest {

    static final String ORG = "b00000000000000000000001";
    static final String USER = "c00000000000000000000001";
    static final String OTHER_USER = "c00000000000000000000002";
    static final String LINK = "f00000000000000000000001";
    static final String NEXT_LINK = "f00000000000000000000002";
    static final long T0 = 1_700_000_000L;
    static final long T1 = 1_700_000_100L;
    static final String ACCESS = "Atza|IwEBIAccessTokenInClear-0123456789";
    static final String REFRESH = "Atzr|IwEBIRefreshTokenInClear-9876543210";
    static final Actor OWNER = new Actor(USER, ORG, Role.MEMBER);
    static final VoiceAssistantAccountId ACCOUNT = VoiceAssistantAccountId.of(VoiceAssistant.ALEXA, USER);
    static final String ACCOUNT_ID = ACCOUNT.value();

    private FixtureConfiguration<VoiceAssistantAccountAggregate> fixture;
    private FakeLinkKeys keys;
    private final List<Object> published = new ArrayList<>();

    @BeforeEach
    void setUp() {
        keys = new FakeLinkKeys();
        fixture = new AggregateTestFixture<>(VoiceAssistantAccountAggregate.class);
        fixture.registerInjectableResource(keys);
    }

    private static LinkVoiceAssistantCommand link(String linkId, String access, String refresh, long at) {
        return new LinkVoiceAssistantCommand(ACCOUNT, VoiceAssistant.ALEXA, OWNER, linkId, access, refresh, at);
    }

    private static UnlinkVoiceAssistantCommand unlink(long at) {
        return new UnlinkVoiceAssistantCommand(ACCOUNT, VoiceAssistant.ALEXA, OWNER, at);
    }

    /** A past link as the log holds it; the key it was sealed with is in {@link #keys} unless {@code keyDestroyed}. */
    private VoiceAssistantLinkedEvent linked(String linkId, long at, boolean keyDestroyed) {
        SecretKey key = keys.create(linkId, ACCOUNT_ID, at);
        VoiceAssistantLinkedEvent event = new VoiceAssistantLinkedEvent(ACCOUNT_ID, "alexa", USER, ORG, linkId,
                TokenCipher.NAME, TokenCipher.seal(key, linkId, "accessToken", "old-access"),
                TokenCipher.seal(key, linkId, "refreshToken", "old-refresh"), USER, at);
        if (keyDestroyed) {
            keys.destroy(linkId);
        }
        return event;
    }

    private static VoiceAssistantUnlinkedEvent unlinked(String linkId, String reason, long at) {
        return new VoiceAssistantUnlinkedEvent(ACCOUNT_ID, "alexa", USER, ORG, linkId, reason, USER, at);
    }

    /** Lets every event through to {@link #published}, where AssertJ looks at them. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Matcher captured() {
        return Matchers.predicate(events -> {
            published.clear();
            ((List<EventMessage<?>>) events).forEach(e -> published.add(e.getPayload()));
            return true;
        });
    }

    private void assertSealedWithItsKey(VoiceAssistantLinkedEvent event, String access, String refresh) {
        SecretKey key = keys.find(event.linkId()).orElseThrow();
        assertThat(TokenCipher.open(key, event.linkId(), "accessToken", event.accessToken())).contains(access);
        assertThat(TokenCipher.open(key, event.linkId(), "refreshToken", event.refreshToken())).contains(refresh);
        assertThat(event.toString()).doesNotContain(access, refresh);
    }

    // ---- link

    @Test
    void givenNoLink_whenLinking_thenOneLinkedEventCarriesOnlyTokensSealedWithTheNewLinksKey() {
        // given / when
        fixture.givenNoPriorActivity()
                .when(link(LINK, ACCESS, REFRESH, T0))
                // then
                .expectSuccessfulHandlerExecution()
                .expectResultMessagePayload(new VoiceAssistantLinkRecord(LINK, USER, ORG, "alexa", T0, USER))
                .expectEventsMatching(captured());
        assertThat(published).hasSize(1).first().isInstanceOf(VoiceAssistantLinkedEvent.class);
        VoiceAssistantLinkedEvent event = (VoiceAssistantLinkedEvent) published.get(0);
        assertThat(event).extracting(VoiceAssistantLinkedEvent::accountId, VoiceAssistantLinkedEvent::voiceAssistant,
                        VoiceAssistantLinkedEvent::userId, VoiceAssistantLinkedEvent::organisationId,
                        VoiceAssistantLinkedEvent::linkId, VoiceAssistantLinkedEvent::cipher,
                        VoiceAssistantLinkedEvent::linkedBy, VoiceAssistantLinkedEvent::linkedAt)
                .containsExactly(ACCOUNT_ID, "alexa", USER, ORG, LINK, "AES-256-GCM", USER, T0);
        assertSealedWithItsKey(event, ACCESS, REFRESH);
        assertThat(keys.keys).containsOnlyKeys(LINK);
    }

    @Test
    void givenALink_whenLinkingAgain_thenTheOldKeyIsDestroyedTheOldLinkEndsAsReplacedAndTheNewOneIsLinked() {
        // given
        fixture.given(linked(LINK, T0, false))
                // when
                .when(link(NEXT_LINK, ACCESS, REFRESH, T1))
                // then
                .expectSuccessfulHandlerExecution()
                .expectEventsMatching(captured());
        assertThat(published).hasSize(2);
        assertThat(published.get(0)).isEqualTo(unlinked(LINK, VoiceAssistantUnlinkedEvent.REPLACED, T1));
        VoiceAssistantLinkedEvent event = (VoiceAssistantLinkedEvent) published.get(1);
        assertThat(event.linkId()).isEqualTo(NEXT_LINK);
        assertSealedWithItsKey(event, ACCESS, REFRESH);
        assertThat(keys.keys).containsOnlyKeys(NEXT_LINK);
    }

    @Test
    void givenALinkThatWasUnlinked_whenLinkingAgain_thenOnlyTheNewLinkIsLinked() {
        // given
        fixture.given(linked(LINK, T0, true), unlinked(LINK, VoiceAssistantUnlinkedEvent.UNLINKED, T0 + 1))
                // when
                .when(link(NEXT_LINK, ACCESS, REFRESH, T1))
                // then
                .expectSuccessfulHandlerExecution()
                .expectEventsMatching(captured());
        assertThat(published).hasSize(1);
        assertSealedWithItsKey((VoiceAssistantLinkedEvent) published.get(0), ACCESS, REFRESH);
        assertThat(keys.keys).containsOnlyKeys(NEXT_LINK);
    }

    @Test
    void givenNoLink_whenTheSameTokensAreLinkedTwice_thenTheCiphertextsDiffer() {
        // given / when: a fresh nonce and key per seal, so equal tokens never give equal ciphertexts
        fixture.givenNoPriorActivity().when(link(LINK, ACCESS, ACCESS, T0)).expectEventsMatching(captured());
        VoiceAssistantLinkedEvent event = (VoiceAssistantLinkedEvent) published.get(0);
        // then
        assertThat(event.accessToken().ciphertext()).isNotEqualTo(event.refreshToken().ciphertext());
        assertThat(event.accessToken().nonce()).isNotEqualTo(event.refreshToken().nonce());
    }

    static Stream<Arguments> invalidTokens() {
        String tooLong = "t".repeat(VoiceAssistantLinkRecord.MAX_TOKEN_LENGTH + 1);
        return Stream.of(
                Arguments.of(null, REFRESH, "accessToken"),
                Arguments.of("", REFRESH, "accessToken"),
                Arguments.of("  \t", REFRESH, "accessToken"),
                Arguments.of(tooLong, REFRESH, "accessToken"),
                Arguments.of(ACCESS, null, "refreshToken"),
                Arguments.of(ACCESS, " ", "refreshToken"),
                Arguments.of(ACCESS, tooLong, "refreshToken"));
    }

    @ParameterizedTest
    @MethodSource("invalidTokens")
    void givenALink_whenLinkingWithAnInvalidToken_thenInvalidNamingItAndTheOldLinkAndKeyStay(String access,
                                                                                              String refresh,
                                                                                              String field) {
        // given
        fixture.given(linked(LINK, T0, false))
                // when
                .when(link(NEXT_LINK, access, refresh, T1))
                // then
                .expectNoEvents()
                .expectException(invalidField(field));
        assertThat(keys.keys).containsOnlyKeys(LINK);
    }

    @Test
    void givenNoLink_whenLinkingWithTheLongestAllowedTokens_thenLinked() {
        String longest = "t".repeat(VoiceAssistantLinkRecord.MAX_TOKEN_LENGTH);
        fixture.givenNoPriorActivity().when(link(LINK, longest, longest, T0)).expectEventsMatching(captured());
        assertSealedWithItsKey((VoiceAssistantLinkedEvent) published.get(0), longest, longest);
    }

    @Test
    void givenNothing_whenTheCommandNamesAnotherUsersAccount_thenNotFoundAndNoKey() {
        // given / when: the account id of another user, sent by this one
        fixture.givenNoPriorActivity()
                .when(new LinkVoiceAssistantCommand(VoiceAssistantAccountId.of(VoiceAssistant.ALEXA, OTHER_USER),
                        VoiceAssistant.ALEXA, OWNER, LINK, ACCESS, REFRESH, T0))
                // then
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "exists for you"));
        assertThat(keys.keys).isEmpty();
    }

    // ---- unlink

    @Test
    void givenALink_whenUnlinking_thenItsKeyIsDestroyedAndTheLinkEnds() {
        // given
        VoiceAssistantLinkedEvent past = linked(LINK, T0, false);
        fixture.given(past)
                // when
                .when(unlink(T1))
                // then
                .expectSuccessfulHandlerExecution()
                .expectEvents(unlinked(LINK, VoiceAssistantUnlinkedEvent.UNLINKED, T1));
        assertThat(keys.keys).isEmpty();
        assertThat(new LinkedTokens(keys).open(past)).isEmpty();
    }

    @Test
    void givenNoHistory_whenUnlinking_thenNotFound() {
        fixture.givenNoPriorActivity()
                .when(unlink(T0))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "No alexa account is linked to your user"));
    }

    @Test
    void givenALinkThatWasUnlinked_whenUnlinkingAgain_thenNotFound() {
        fixture.given(linked(LINK, T0, true), unlinked(LINK, VoiceAssistantUnlinkedEvent.UNLINKED, T0 + 1))
                .when(unlink(T1))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "No alexa account is linked"));
    }

    @Test
    void givenNothing_whenUnlinkingAnotherUsersAccount_thenNotFound() {
        fixture.givenNoPriorActivity()
                .when(new UnlinkVoiceAssistantCommand(VoiceAssistantAccountId.of(VoiceAssistant.ALEXA, OTHER_USER),
                        VoiceAssistant.ALEXA, OWNER, T0))
                .expectNoEvents()
                .expectException(domainError(DomainException.Kind.NOT_FOUND, "exists for you"));
    }

    // ---- reading tokens back: only while the key exists

    @Test
    void givenALinkAndItsKey_whenItsTokensAreOpened_thenTheyAreTheLinkedOnes() {
        VoiceAssistantLinkedEvent past = linked(LINK, T0, false);
        assertThat(new LinkedTokens(keys).open(past)).hasValueSatisfying(tokens -> {
            assertThat(tokens.accessToken()).isEqualTo("old-access");
            assertThat(tokens.refreshToken()).isEqualTo("old-refresh");
            assertThat(tokens.toString()).doesNotContain("old-access");
        });
    }

    @Test
    void givenErasedAndLiveLinks_whenTheLogIsReplayedForAnAudit_thenErasedOnesAreEmptyAndNothingFails() {
        // given: three links of which two were ended
        List<VoiceAssistantLinkedEvent> log = List.of(linked(LINK, T0, true), linked(NEXT_LINK, T0, true),
                linked("f00000000000000000000003", T1, false));
        // when
        LinkedTokens reader = new LinkedTokens(keys);
        List<Boolean> readable = log.stream().map(e -> reader.open(e).isPresent()).toList();
        // then
        assertThat(readable).containsExactly(false, false, true);
    }

    @Test
    void theAggregateStateHoldsNoTokenSoNoSnapshotOfItCanLeakOne() {
        // A snapshot stores these fields; a token (sealed or clear) among them would outlive the key's deletion.
        List<String> fields = Stream.of(VoiceAssistantAccountAggregate.class.getDeclaredFields())
                .filter(f -> !f.isSynthetic() && !java.lang.reflect.Modifier.isStatic(f.getModifiers()))
                .map(java.lang.reflect.Field::getName).toList();
        assertThat(fields).containsExactlyInAnyOrder("accountId", "linkId");
    }

    @Test
    void givenASealedToken_whenOpenedAsAnotherLinkOrField_thenItDoesNotOpen() {
        SecretKey key = TokenCipher.newKey();
        SealedToken sealed = TokenCipher.seal(key, LINK, "accessToken", ACCESS);
        assertThat(TokenCipher.open(key, LINK, "accessToken", sealed)).contains(ACCESS);
        assertThat(TokenCipher.open(key, NEXT_LINK, "accessToken", sealed)).isEmpty();
        assertThat(TokenCipher.open(key, LINK, "refreshToken", sealed)).isEmpty();
        assertThat(TokenCipher.open(TokenCipher.newKey(), LINK, "accessToken", sealed)).isEmpty();
        assertThat(TokenCipher.open(key, LINK, "accessToken", new SealedToken(sealed.nonce(), "not base64!")))
                .isEmpty();
    }
}
