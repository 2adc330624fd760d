package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.testing.TestDatabase;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.TreeSet;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.AbstractTokenEntry;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.UnableToClaimTokenException;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Node A holds a segment, stalls past the claim timeout, node B takes the segment over, stores a later token and lets
 * it go; A then finishes its batch and stores its older token. Axon's store lets A claim the free segment and move the
 * token (and, in the same transaction, the projection rows) back; the fenced store refuses, so A's batch rolls back.
 */
@Tag("integration")
class FencedTokenStoreTest {

    private static final String PROCESSOR = "locales";
    private static HikariDataSource dataSource;
    private static final TokenSchema SCHEMA = TokenSchema.builder().setTokenTable("token_entry")
            .setProcessorNameColumn("processor_name").setSegmentColumn("segment").setTokenColumn("token")
            .setTokenTypeColumn("token_type").setTimestampColumn("time_stamp").setOwnerColumn("owner").build();
    private final Clock realClock = AbstractTokenEntry.clock;

    @BeforeAll
    static void database() {
        TestDatabase.Settings db = TestDatabase.newDatabase();
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(db.jdbcUrl());
        dataSource.setUsername(db.username());
        dataSource.setPassword(db.password());
        Flyway.configure().dataSource(dataSource).locations("classpath:db/common").load().migrate();
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @AfterEach
    void clock() {
        AbstractTokenEntry.clock = realClock;
    }

    private static JdbcTokenStore.Builder builder() {
        return JdbcTokenStore.builder().connectionProvider(dataSource::getConnection)
                .serializer(AxonSerializers.jackson3()).claimTimeout(Duration.ofSeconds(2));
    }

    private static TokenStore fenced(String node) {
        return new FencedTokenStore(builder(), node, SCHEMA);
    }

    private static TokenStore axon(String node) {
        return builder().nodeId(node).schema(SCHEMA).build();
    }

    private static GapAwareTrackingToken at(long index) {
        return GapAwareTrackingToken.newInstance(index, new TreeSet<>());
    }

    /** A held the segment at 119 and stalled 3 s; B took it over and stored 122. */
    private void bTookOver(TokenStore a, TokenStore b, String processor) {
        a.initializeTokenSegments(processor, 1, at(100));
        a.fetchToken(processor, 0);
        a.storeToken(at(119), processor, 0);
        AbstractTokenEntry.clock = Clock.offset(realClock, Duration.ofSeconds(3));
        b.fetchToken(processor, 0);
        b.storeToken(at(122), processor, 0);
    }

    /** B took over, then released the segment (its share shrank, or it stopped); A finishes its batch up to 120. */
    private String aStoresAfterBTookOverAndReleased(TokenStore a, TokenStore b, String processor) {
        bTookOver(a, b, processor);
        b.releaseClaim(processor, 0);
        try {
            a.storeToken(at(120), processor, 0);
            return "stored";
        } catch (UnableToClaimTokenException refused) {
            return "refused: " + refused.getMessage();
        }
    }

    @Test
    void givenAxonsStore_whenALapsedNodeStoresOnAReleasedSegment_thenItClaimsItAndTheTokenMovesBack() {
        String outcome = aStoresAfterBTookOverAndReleased(axon("a"), axon("b"), PROCESSOR + "-axon");

        assertThat(outcome).isEqualTo("stored");
        axon("a").releaseClaim(PROCESSOR + "-axon", 0);
        assertThat(axon("c").fetchToken(PROCESSOR + "-axon", 0).position()).hasValue(120);
    }

    @Test
    void givenTheFencedStore_whenALapsedNodeStoresOnAReleasedSegment_thenItIsRefusedAndTheLaterTokenStays() {
        String outcome = aStoresAfterBTookOverAndReleased(fenced("a"), fenced("b"), PROCESSOR + "-fenced");

        assertThat(outcome).startsWith("refused");
        assertThat(fenced("c").fetchToken(PROCESSOR + "-fenced", 0).position()).hasValue(122);
    }

    @Test
    void givenTheFencedStore_whenALapsedNodeStoresWhileTheNewOwnerHoldsIt_thenItIsRefused() {
        TokenStore a = fenced("a");
        TokenStore b = fenced("b");
        String processor = PROCESSOR + "-held";
        bTookOver(a, b, processor);

        assertThatThrownBy(() -> a.storeToken(at(130), processor, 0))
                .isInstanceOf(UnableToClaimTokenException.class).hasMessageContaining("owned by b");
    }

    @Test
    void givenAReleasedSegment_whenANodeStoresANewerTokenOrAReset_thenItIsStored() {
        TokenStore a = fenced("a");
        TokenStore b = fenced("b");
        String processor = PROCESSOR + "-released";
        bTookOver(a, b, processor);
        b.releaseClaim(processor, 0);

        a.storeToken(at(130), processor, 0);
        a.releaseClaim(processor, 0);
        TrackingToken reset = ReplayToken.createReplayToken(at(130), null);
        b.storeToken(reset, processor, 0);
        assertThat(b.fetchToken(processor, 0)).isEqualTo(reset);
    }
}
