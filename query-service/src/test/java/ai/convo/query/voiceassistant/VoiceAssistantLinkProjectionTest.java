package ai.convo.query.voiceassistant;

import ai.convo.query.ReadModelSchema;
import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.voiceassistant.SealedToken;
import ai.convo.contract.voiceassistant.VoiceAssistantLinkedEvent;
import ai.convo.contract.voiceassistant.VoiceAssistantUnlinkedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The voice-assistant link projection is plain code: feed it events, look at the rows. */
@Tag("integration")
class VoiceAssistantLinkProjectionTest {

    static final String ORG = "000000000000000000000001";
    static final String USER = "000000000000000000000002";
    static final String ACCOUNT = "0000000000000000000000a1";
    static final String LINK = "0000000000000000000000f1";
    static final String NEXT_LINK = "0000000000000000000000f2";
    static final SealedToken SEALED = new SealedToken("bm9uY2Vub25jZTEy", "c2VhbGVkLXRva2VuLWJ5dGVz");

    static JdbcTemplate jdbc;
    VoiceAssistantLinkProjection links;

    @BeforeAll
    static void database() {
        DriverManagerDataSource dataSource = ReadModelSchema.migrated();
        jdbc = new JdbcTemplate(dataSource);
    }

    @BeforeEach
    void empty() {
        jdbc.update("DELETE FROM voice_assistant_link_view");
        links = new VoiceAssistantLinkProjection(jdbc);
    }

    private static VoiceAssistantLinkedEvent linked(String linkId, long at) {
        return new VoiceAssistantLinkedEvent(ACCOUNT, "alexa", USER, ORG, linkId, "AES-256-GCM", SEALED, SEALED, USER, at);
    }

    private static VoiceAssistantUnlinkedEvent unlinked(String linkId, String reason, long at) {
        return new VoiceAssistantUnlinkedEvent(ACCOUNT, "alexa", USER, ORG, linkId, reason, USER, at);
    }

    private List<Map<String, Object>> rows() {
        return jdbc.queryForList("SELECT * FROM voice_assistant_link_view");
    }

    @Test
    void givenNothing_whenLinked_thenOneRowWithTheLinksMetaAndNothingSealed() {
        // when
        links.on(linked(LINK, 100));
        // then
        assertThat(rows()).singleElement().satisfies(row -> {
            assertThat(row).containsOnlyKeys("account_id", "link_id", "voice_assistant", "user_id", "organisation_id",
                    "created_at", "created_by");
            assertThat(row).containsEntry("account_id", ACCOUNT).containsEntry("link_id", LINK)
                    .containsEntry("voice_assistant", "alexa").containsEntry("user_id", USER)
                    .containsEntry("organisation_id", ORG).containsEntry("created_at", 100L)
                    .containsEntry("created_by", USER);
            assertThat(row.toString()).doesNotContain(SEALED.ciphertext(), SEALED.nonce());
        });
    }

    @Test
    void givenALink_whenUnlinked_thenTheRowIsGone() {
        links.on(linked(LINK, 100));
        links.on(unlinked(LINK, VoiceAssistantUnlinkedEvent.UNLINKED, 200));
        assertThat(rows()).isEmpty();
    }

    @Test
    void givenALink_whenReplacedByANewOne_thenOnlyTheNewLinkRemains() {
        // given
        links.on(linked(LINK, 100));
        // when: the order the aggregate writes them in
        links.on(unlinked(LINK, VoiceAssistantUnlinkedEvent.REPLACED, 200));
        links.on(linked(NEXT_LINK, 200));
        // then
        assertThat(rows()).singleElement().satisfies(row -> assertThat(row)
                .containsEntry("link_id", NEXT_LINK).containsEntry("created_at", 200L));
    }

    @Test
    void givenTheWholeHistory_whenReplayedFromTheStart_thenTheSameRowsAsBefore() {
        // given: link, unlink, link again: an audit replay after erasure sees sealed tokens it cannot open
        List<Object> history = List.of(linked(LINK, 100), unlinked(LINK, VoiceAssistantUnlinkedEvent.UNLINKED, 150),
                linked(NEXT_LINK, 200));
        history.forEach(this::feed);
        List<Map<String, Object>> before = rows();
        // when
        jdbc.update("DELETE FROM voice_assistant_link_view");
        history.forEach(this::feed);
        // then
        assertThat(rows()).isEqualTo(before).singleElement().satisfies(row -> assertThat(row)
                .containsEntry("link_id", NEXT_LINK));
    }

    @Test
    void givenAnEndedLink_whenItsUnlinkIsReplayedAgain_thenTheNewerLinkStays() {
        links.on(linked(NEXT_LINK, 200));
        links.on(unlinked(LINK, VoiceAssistantUnlinkedEvent.REPLACED, 200));
        assertThat(rows()).singleElement().satisfies(row -> assertThat(row).containsEntry("link_id", NEXT_LINK));
    }

    private void feed(Object event) {
        if (event instanceof VoiceAssistantLinkedEvent e) {
            links.on(e);
        } else if (event instanceof VoiceAssistantUnlinkedEvent e) {
            links.on(e);
        }
    }
}
