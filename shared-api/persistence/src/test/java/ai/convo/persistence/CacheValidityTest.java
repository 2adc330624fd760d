package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** When a cached value stops being current: changes of its tags, bare changes, and any gap in listening. */
class CacheValidityTest {

    private static final String CHANNEL = EventNotifications.READ_MODEL_CHANGES;

    private CacheValidity validity;

    @BeforeEach
    void listening() {
        // given: notifications are being received
        validity = new CacheValidity(CHANNEL, new EventNotifications(null));
        validity.listening(true);
    }

    @Test
    void aStampStaysValidUntilOneOfItsTagsChanges() {
        CacheValidity.Stamp stamp = validity.stamp("flow:a", "locales");

        validity.changed(CHANNEL, "flow:b");
        validity.changed(EventNotifications.IDENTITY_CHANGES, "flow:a");
        assertThat(validity.valid(stamp)).isTrue();

        validity.changed(CHANNEL, "flow:a");
        assertThat(validity.valid(stamp)).isFalse();
        assertThat(validity.valid(validity.stamp("flow:a", "locales"))).isTrue();
    }

    @Test
    void aChangeWhileTheValueIsReadMakesItStale() {
        // given: the stamp is taken before the read, as the caches do
        CacheValidity.Stamp before = validity.stamp("locales");

        // when: a change commits while the value is read
        validity.changed(CHANNEL, "locales");

        // then: what was read may miss it, so it is not current
        assertThat(validity.valid(before)).isFalse();
    }

    @Test
    void aBareChangeEndsEverything() {
        CacheValidity.Stamp stamp = validity.stamp("flow:a");

        validity.changed(CHANNEL, "");

        assertThat(validity.valid(stamp)).isFalse();
    }

    @Test
    void nothingIsCachedWhileNotListeningNorTrustedAfterAGap() {
        CacheValidity.Stamp stamp = validity.stamp("flow:a");

        validity.listening(false);
        assertThat(validity.stamp("flow:a")).isNull();
        assertThat(validity.valid(stamp)).isFalse();

        validity.listening(true);
        assertThat(validity.valid(stamp)).as("changes during the gap went unnoticed").isFalse();
    }

    @Test
    void forgettingTagsWhenFullNeverRevivesAnOldStamp() {
        CacheValidity.Stamp stamp = validity.stamp("flow:x");
        for (int i = 0; i <= CacheValidity.MAX_TAGS; i++) {
            validity.changed(CHANNEL, "flow:" + i);
        }

        assertThat(validity.valid(stamp)).isFalse();
        assertThat(validity.valid(validity.stamp("flow:x"))).isTrue();
    }
}
