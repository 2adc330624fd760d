package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleDeletedEvent;
import ai.convo.http.security.Secrets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The intent list answers repeated requests from a cache (query/web/ResponseCache). These requests carry no
 * X-Event-Position, as a polling script's would: a change must reach them within the projection's lag, never be
 * hidden behind a cached answer; and a cached answer never crosses organisations or outlives its API key.
 */
class IntentListCacheTest extends IntentQuerySupport {

    /** Far below the cache's own 60 s bound: staying stale this long means the change was not noticed. */
    private static final Duration NOTICED_WITHIN = Duration.ofSeconds(5);

    private Caller caller;
    private Project project;
    private String flow;
    private String uri;

    @BeforeEach
    void seed() {
        // given: a flow with two intents, and the list read (and cached) after the projection has them
        caller = newOrganisation();
        project = project(caller, "Cached", 1000);
        flow = newFlow(caller, project.id(), 1000);
        intent(caller, project.id(), flow, Ids.newId(), "alpha", null, 1000);
        long position = intent(caller, project.id(), flow, Ids.newId(), "bravo", null, 1001);
        uri = "/v2.0/flows/" + flow + "/intents?limit=25";
        get(uri, caller, position);
        assertThat(read(uri, caller, 200)).containsEntry("total", 2);
        assertThat(read(uri, caller, 200)).containsEntry("total", 2);
    }

    @Autowired
    MeterRegistry meters;

    private double answers(String source) {
        return meters.get("convo.lists.cached.answers").tag("source", source).counter().count();
    }

    private double routed(String status) {
        return meters.find("http.server.requests").tag("status", status).timers().stream()
                .filter(timer -> timer.getId().getTag("uri").endsWith("/v2.0/flows/{flowId}/intents"))
                .mapToDouble(timer -> timer.count()).sum();
    }

    @Test
    void aRepeatedReadIsAnsweredBeforeTheDispatchWithTheControllersAnswer() {
        // given a page not read yet, read once (through the controller)
        String page = "/v2.0/flows/" + flow + "/intents?limit=24";
        EntityExchangeResult<byte[]> first = http.get().uri(page).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().returnResult();
        double before = answers("cache_before_dispatch");
        double counted = routed("200");

        // when it is read again, and once with another Accept
        EntityExchangeResult<byte[]> again = http.get().uri(page).header("X-API-Key", caller.apiKey()).exchange()
                .expectStatus().isOk().expectBody().returnResult();
        EntityExchangeResult<byte[]> xml = http.get().uri(page).header("X-API-Key", caller.apiKey())
                .header("Accept", "application/xml").exchange().expectStatus().isOk().expectBody().returnResult();

        // then the second came from the cache before the dispatch: the same bytes, headers and route as the first
        assertThat(answers("cache_before_dispatch")).isEqualTo(before + 1);
        assertThat(again.getResponseBodyContent()).isEqualTo(first.getResponseBodyContent());
        assertThat(again.getResponseHeaders().getContentType()).isEqualTo(first.getResponseHeaders().getContentType());
        assertThat(again.getResponseHeaders().getContentLength()).isEqualTo(first.getResponseHeaders().getContentLength())
                .isEqualTo(first.getResponseBodyContent().length);
        assertThat(again.getResponseHeaders().headerNames()).isEqualTo(first.getResponseHeaders().headerNames());
        assertThat(routed("200")).isEqualTo(counted + 2);
        // and another Accept is another answer
        assertThat(xml.getResponseHeaders().getContentType().toString()).contains("xml");
        assertThat(new String(xml.getResponseBodyContent())).startsWith("<");
    }

    @Test
    void aNewIntentReachesTheCachedList() {
        // when
        intent(caller, project.id(), flow, Ids.newId(), "charlie", null, 1002);

        // then
        Map<String, Object> page = until(uri, caller, 200, body -> Integer.valueOf(3).equals(body.get("total")));
        assertThat(names(page)).containsExactly("alpha", "bravo", "charlie");
    }

    @Test
    void aChangeCommittedBeforeAReadArrivesIsNeverHiddenByTheCache() {
        // given the list is cached (seed); when a projection commits a change and the very next read follows at
        // once, that read shows it: the look-up before the cache brings every invalidation committed before it
        String alpha = ids(read(uri, caller, 200)).get(0);
        for (int round = 0; round < 100; round++) {
            jdbc.update("UPDATE intent_view SET name = ? WHERE id = ?", "alpha " + round, alpha);

            assertThat(names(read(uri, caller, 200))).as("round " + round).first().isEqualTo("alpha " + round);
        }
        // and those reads were answered from the cache: a change that raises no notification stays hidden
        unnoticed(alpha);
        assertThat(names(read(uri, caller, 200))).first().isEqualTo("alpha 99");
    }

    @Test
    void aNewSentenceChangesTheCachedCounts() {
        // given
        String intentId = ids(read(uri, caller, 200)).get(0);

        // when
        sentence(caller, project.id(), flow, intentId, Ids.newId(), project.primaryLocaleId(), "hello there", 1003);

        // then
        until(uri, caller, 200, body -> Integer.valueOf(1).equals(items(body).get(0).get("sentenceCount")));
    }

    @Test
    void aDeletedLocaleEndsTheCachedAnswersThatPreferIt() {
        // given: answers preferring a second locale are cached
        String second = Ids.newId();
        long position = locale(caller, project.id(), second, "German", "de-DE", null);
        String preferring = uri + "&preferredLocaleId=" + second;
        get(preferring, caller, position);
        read(preferring, caller, 200);

        // when
        append(project.id(), new LocaleDeletedEvent(project.id(), caller.organisationId(), second, caller.userId(), 2000));

        // then: the same request is now the 400 for a locale the project does not have
        Map<String, Object> problem = until(preferring, caller, 400, body -> true);
        assertThat(problem.get("detail").toString()).contains("preferredLocaleId");
    }

    @Test
    void twentyReadsAtOnceWithTheirOwnAcceptsGetTheCallersAnswerAndAStrangersGetNone() throws Exception {
        // given: the list is cached (seed); a stranger of another organisation
        Caller stranger = newOrganisation();
        byte[] cached = http.get().uri(uri).header("X-API-Key", caller.apiKey()).header("Accept", "application/json")
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBodyContent();

        // when: twenty reads with Accept headers of their own (each a key of the cache before the dispatch), the
        // longest near the header limit, run at once beside twenty of the stranger's
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(40);
        java.util.List<java.util.concurrent.Future<String>> done = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                String accept = "application/json;q=0." + (i + 1) + (i == 19 ? ", text/x-" + "a".repeat(6000) + ";q=0.01" : "");
                done.add(pool.submit(() -> {
                    for (int round = 0; round < 3; round++) {
                        var mine = http.get().uri(uri).header("X-API-Key", caller.apiKey()).header("Accept", accept)
                                .exchange().expectBody().returnResult();
                        if (mine.getStatus().value() != 200 || !java.util.Arrays.equals(mine.getResponseBodyContent(), cached)) {
                            return "caller with Accept " + accept.length() + " chars: " + mine.getStatus();
                        }
                        var theirs = http.get().uri(uri).header("X-API-Key", stranger.apiKey()).header("Accept", accept)
                                .exchange().expectBody().returnResult();
                        if (theirs.getStatus().value() != 404) {
                            return "stranger: " + theirs.getStatus();
                        }
                    }
                    return null;
                }));
            }
            // then every read of the caller got the cached answer, every read of the stranger a 404
            for (var future : done) {
                assertThat(future.get(60, java.util.concurrent.TimeUnit.SECONDS)).isNull();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anotherOrganisationNeverGetsTheCachedAnswer() {
        // when
        Caller stranger = newOrganisation();

        // then
        assertThat(read(uri, stranger, 404)).containsEntry("status", 404);
        assertThat(read(uri + "&api_key=" + stranger.apiKey(), null, 404)).containsEntry("status", 404);
    }

    @Test
    void aRevokedKeyIsRefusedAlthoughItWasJustAccepted() {
        // when: the command service revokes the key (its identity lookup writes exactly this)
        jdbc.update("UPDATE identity_api_key SET revoked_at = 1 WHERE key_hash = ?", Secrets.hashApiKey(caller.apiKey()));

        // then
        until(uri, caller, 401, body -> true);
    }

    @Test
    void requestsThatDifferOnlyInTheirQueryAreDifferentAnswers() {
        // then: an escaped separator in a value is not the same request as two parameters
        assertThat(read(uri + "&filter=al", caller, 200)).containsEntry("total", 1);
        assertThat(read(uri + "&filter=al%7C5:sort", caller, 200)).containsEntry("total", 0);
        assertThat(read(uri + "&sort=name:desc", caller, 200)).extracting(IntentListCacheTest::names)
                .isEqualTo(java.util.List.of("bravo", "alpha"));
    }

    @Test
    void aGapNoEventWillFillDoesNotKeepItsWriterFromTheCache() {
        // given: a position no event takes (an append that rolled back, as after a conflict between two command
        // replicas), then a write of the caller after it; the projections' tokens keep that gap for 10,000 events
        jdbc.queryForObject("SELECT nextval(pg_get_serial_sequence('domain_event_entry', 'global_index'))", Long.class);
        String elsewhere = newFlow(caller, project.id(), 1003);
        as(caller, () -> intent(caller, project.id(), elsewhere, Ids.newId(), "elsewhere", null, 1004));
        String alpha = ids(read(uri, caller, 200)).get(0);
        read(uri, caller, 200);

        // when: a change that raises no notification
        unnoticed(alpha);

        // then: the caller's reads are still answered from the cache, since each one's look-up finds the gap empty
        assertThat(names(read(uri, caller, 200))).first().isEqualTo("alpha");
    }

    @Test
    void aGapTheCachedAnswerPassedIsReadAnewOnceTheCallersOwnWriteFillsIt() throws Exception {
        // given: the caller's new intent holds a position but has not committed, and a later event has: the
        // projections pass the gap, and the list is cached as reflecting the later event
        var appended = new java.util.concurrent.CountDownLatch(1);
        var commit = new java.util.concurrent.CountDownLatch(1);
        var slow = java.util.concurrent.CompletableFuture.supplyAsync(() -> as(caller, () -> {
            long position = intent(caller, project.id(), flow, Ids.newId(), "delta", null, 1005);
            appended.countDown();
            try {
                commit.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return position;
        }));
        appended.await();
        long later = intent(caller, project.id(), newFlow(caller, project.id(), 1006), Ids.newId(), "later", null, 1007);
        get(uri, caller, later);
        assertThat(names(get(uri, caller, later))).containsExactly("alpha", "bravo");

        // when: the caller's write commits into the gap
        commit.countDown();
        slow.get();

        // then: the caller's very next read shows it, although the cached answer reflects a later position
        assertThat(names(read(uri, caller, 200))).containsExactly("alpha", "bravo", "delta");
    }

    /** Changes an intent's name without the notification its projection raises: only an uncached read shows it. */
    private void unnoticed(String intentId) {
        new org.springframework.transaction.support.TransactionTemplate(transactions).executeWithoutResult(status -> {
            jdbc.execute("SET LOCAL session_replication_role = replica");
            jdbc.update("UPDATE intent_view SET name = 'unnoticed' WHERE id = ?", intentId);
        });
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> read(String uri, Caller caller, int status) {
        var request = http.get().uri(uri);
        if (caller != null) {
            request = request.header("X-API-Key", caller.apiKey());
        }
        return request.exchange().expectStatus().isEqualTo(status).expectBody(Map.class).returnResult().getResponseBody();
    }

    /** Reads without X-Event-Position until the answer has this status and passes the check, or fails. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> until(String uri, Caller caller, int status, Predicate<Map<String, Object>> check) {
        long deadline = System.nanoTime() + NOTICED_WITHIN.toNanos();
        while (true) {
            var result = http.get().uri(uri).header("X-API-Key", caller.apiKey()).exchange()
                    .expectBody(Map.class).returnResult();
            Map<String, Object> body = result.getResponseBody();
            if (result.getStatus().value() == status && body != null && check.test(body)) {
                return body;
            }
            assertThat(System.nanoTime()).as("%s still answers %s %s", uri, result.getStatus(), body).isLessThan(deadline);
            sleep();
        }
    }

    private static java.util.List<Object> names(Map<String, Object> page) {
        return items(page).stream().map(item -> item.get("name")).toList();
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
