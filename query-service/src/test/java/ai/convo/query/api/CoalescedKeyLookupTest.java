package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.security.Secrets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * API-key look-ups made at once share statements (app.identity.coalesced): every request is still answered as its
 * own key's user, and a key revoked before a burst is refused in every request of it, whichever statement served it.
 */
class CoalescedKeyLookupTest extends QueryTestBase {

    @Test
    void requestsOfManyKeysAtOnceAreEachTheirOwnUsers() throws Exception {
        // given: three organisations' keys, one of them revoked
        List<Caller> callers = List.of(newOrganisation(), newOrganisation(), newOrganisation());
        Caller revoked = newOrganisation();
        jdbc.update("UPDATE identity_api_key SET revoked_at = 1 WHERE key_hash = ?", Secrets.hashApiKey(revoked.apiKey()));

        // when: 120 reads of /users/me with the four keys interleaved start together
        ExecutorService pool = Executors.newFixedThreadPool(24);
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentHashMap<Integer, String> wrong = new ConcurrentHashMap<>();
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int i = 0; i < 120; i++) {
                int request = i;
                done.add(pool.submit(() -> {
                    start.await();
                    if (request % 4 == 3) {
                        int status = http.get().uri("/v2.0/users/me").header("X-API-Key", revoked.apiKey())
                                .exchange().returnResult(byte[].class).getStatus().value();
                        if (status != 401) {
                            wrong.put(request, "revoked key answered " + status);
                        }
                        return null;
                    }
                    Caller caller = callers.get(request % 4);
                    EntityExchangeResult<byte[]> result = http.get().uri("/v2.0/users/me")
                            .header("X-API-Key", caller.apiKey()).exchange().expectBody().returnResult();
                    String body = new String(result.getResponseBodyContent() == null ? new byte[0]
                            : result.getResponseBodyContent());
                    if (result.getStatus().value() != 200 || !body.contains("\"_id\":\"" + caller.userId() + "\"")) {
                        wrong.put(request, result.getStatus() + " " + body);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        // then: every key's requests were its own user's, the revoked key's all refused
        assertThat(wrong).isEmpty();
    }
}
