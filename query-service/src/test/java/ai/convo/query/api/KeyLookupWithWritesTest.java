package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.IdentityStore;
import ai.convo.http.security.Secrets;
import ai.convo.query.consistency.ReadYourWrites;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/**
 * A read by API key learns its principal and that principal's newest write in one look-up, made after the read
 * arrived; the read then reflects what was written before it arrived and does not look its writes up again.
 */
class KeyLookupWithWritesTest extends QueryTestBase {

    @Autowired
    IdentityStore identities;
    @Autowired
    ReadYourWrites consistency;

    private static MockServerWebExchange read() {
        return MockServerWebExchange.from(MockServerHttpRequest.get("/new/v2.0/projects"));
    }

    @Test
    void aReadReflectsTheWritesBeforeItsKeyWasLookedUpWithoutASecondLookUp() {
        // given a caller whose write is recorded
        Caller caller = newOrganisation();
        long before = as(caller, () -> project(caller, "Before", 1000).position());

        // when a read's key is looked up, then the caller writes again, then the read waits for its writes
        MockServerWebExchange exchange = read();
        ApiPrincipal principal = identities.findByApiKeyHash(Secrets.hashApiKey(caller.apiKey()), exchange).block();
        long after = as(caller, () -> project(caller, "After", 1000).position());
        consistency.await(exchange, List.of(caller.userId())).block();

        // then the read is the caller's and reflects the write its look-up found, not the later one
        assertThat(principal.userId()).isEqualTo(caller.userId());
        assertThat(after).isGreaterThan(before);
        assertThat(ReadYourWrites.required(exchange).position()).isEqualTo(before);
        // and a read without it looks the newest up itself
        MockServerWebExchange other = read();
        consistency.await(other, List.of(caller.userId())).block();
        assertThat(ReadYourWrites.required(other).position()).isEqualTo(after);
    }

    @Test
    void aWriteRequestsKeyIsLookedUpAloneAndItsReadsLookTheirWritesUp() {
        Caller caller = newOrganisation();
        long written = as(caller, () -> project(caller, "Written", 1000).position());

        MockServerWebExchange post = MockServerWebExchange.from(MockServerHttpRequest.post("/new/v2.0/projects"));
        ApiPrincipal principal = identities.findByApiKeyHash(Secrets.hashApiKey(caller.apiKey()), post).block();
        consistency.await(post, List.of(caller.userId())).block();

        assertThat(principal.userId()).isEqualTo(caller.userId());
        assertThat(ReadYourWrites.required(post).position()).isEqualTo(written);
    }

    @Test
    void aRevokedKeyOrADisabledUserIsNobodyAndAUserWithoutWritesWaitsForNothing() {
        Caller revoked = newOrganisation();
        Caller disabled = newOrganisation();
        Caller fresh = newOrganisation();
        jdbc.update("UPDATE identity_api_key SET revoked_at = 1 WHERE key_hash = ?", Secrets.hashApiKey(revoked.apiKey()));
        jdbc.update("UPDATE identity_user SET disabled = true WHERE id = ?", disabled.userId());

        assertThat(identities.findByApiKeyHash(Secrets.hashApiKey(revoked.apiKey()), read()).blockOptional()).isEmpty();
        assertThat(identities.findByApiKeyHash(Secrets.hashApiKey(disabled.apiKey()), read()).blockOptional()).isEmpty();
        assertThat(identities.findByApiKeyHash(Secrets.hashApiKey(Ids.newId()), read()).blockOptional()).isEmpty();
        MockServerWebExchange exchange = read();
        assertThat(identities.findByApiKeyHash(Secrets.hashApiKey(fresh.apiKey()), exchange).block().userId())
                .isEqualTo(fresh.userId());
        consistency.await(exchange, List.of(fresh.userId())).block();
        assertThat(ReadYourWrites.required(exchange).position()).isZero();
    }
}
