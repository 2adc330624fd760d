package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.security.LoginLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Password guesses that arrive all at once, through the real filter chain: however many there are, no more passwords
 * are checked than the lock lets through one at a time (five free ones, then the lock, 60 s here). Each guess is
 * claimed in the database before its password is checked, so a burst cannot read the lock before any of it is written.
 */
class LoginGuessBurstApiTest extends ApiTestBase {

    private static final int BURST = 50;
    private static final String FAILED = "ai.convo.contract.identity.LoginFailedEvent";
    private static final String SUCCEEDED = "ai.convo.contract.identity.LoginSucceededEvent";

    /** Sends every password at once, each on a connection of its own; the statuses come back in the same order. */
    private List<Integer> burst(String email, List<String> passwords) {
        WebClient client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(HttpClient.create(ConnectionProvider.newConnection())))
                .baseUrl("http://localhost:" + environment.getProperty("local.server.port") + "/new").build();
        return Flux.fromIterable(passwords).flatMapSequential(password -> client.post().uri("/v2.0/users/me/apikeys")
                        .header("Authorization", basic(email, password)).contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of("name", "k"))
                        .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value())),
                        passwords.size())
                .collectList().block(Duration.ofSeconds(60));
    }

    private static List<String> wrongPasswords() {
        return new ArrayList<>(IntStream.range(0, BURST).mapToObj(i -> "guess-" + i).toList());
    }

    /** An organisation whose admin has this e-mail and has never signed in (the first success is an event). */
    private String newUser(String email) {
        http.post().uri("/management/v2.0/organisations").header("X-API-Key", ADMIN_KEY)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "Burst " + email, "adminEmail", email, "adminPassword", "password-" + email))
                .exchange().expectStatus().isCreated();
        return jdbc.queryForObject("SELECT id FROM identity_user WHERE email = ?", String.class, email);
    }

    private List<String> loginEvents(String userId) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE payload_type LIKE "
                + "'ai.convo.contract.identity.Login%' AND convert_from(payload, 'UTF8')::jsonb ->> 'userId' = ? "
                + "ORDER BY global_index", String.class, userId);
    }

    private int recordedFailures(String email) {
        return jdbc.queryForObject("SELECT failures FROM login_throttle WHERE email = ?", Integer.class, email);
    }

    private int signIn(String email, String password) {
        return http.post().uri("/v2.0/users/me/apikeys").header("Authorization", basic(email, password))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "k")).exchange()
                .returnResult(Void.class).getStatus().value();
    }

    @Test
    void givenFiftyWrongPasswordsAtOnce_forAUserAndForAnUnknownEmail_thenFiveAreCheckedAndTheRestAreLocked() {
        // given
        String email = "burst-wrong@example.com";
        String userId = newUser(email);
        String unknown = "nobody-burst-" + System.nanoTime() + "@example.com";
        // when: both bursts at once
        var userBurst = java.util.concurrent.CompletableFuture.supplyAsync(() -> burst(email, wrongPasswords()));
        List<Integer> unknownStatuses = burst(unknown, wrongPasswords());
        List<Integer> userStatuses = userBurst.join();
        // then: five passwords were checked (and failed), every other guess got the lock's answer, alike for both
        for (List<Integer> statuses : List.of(userStatuses, unknownStatuses)) {
            assertThat(statuses).filteredOn(status -> status == 401).hasSize(LoginLock.FREE_FAILURES);
            assertThat(statuses).filteredOn(status -> status == 429).hasSize(BURST - LoginLock.FREE_FAILURES);
        }
        assertThat(loginEvents(userId)).hasSize(LoginLock.FREE_FAILURES).containsOnly(FAILED);
        assertThat(recordedFailures(email)).isEqualTo(LoginLock.FREE_FAILURES);
        assertThat(recordedFailures(unknown)).isEqualTo(LoginLock.FREE_FAILURES);
        // and: the right password is locked out as well
        assertThat(signIn(email, "password-" + email)).isEqualTo(429);
    }

    @Test
    void givenTheRightPasswordThirtySeventhInABurstOfFifty_thenItIsAcceptedOnlyAmongTheFirstFiveChecked() {
        // given
        String email = "burst-right@example.com";
        String userId = newUser(email);
        List<String> passwords = wrongPasswords();
        passwords.set(36, "password-" + email);
        // when
        List<Integer> statuses = burst(email, passwords);
        // then: every wrong password checked is a 401 and a recorded failure, the others got the lock's answer
        List<String> events = loginEvents(userId);
        long checkedWrong = statuses.stream().filter(status -> status == 401).count();
        assertThat(events).filteredOn(FAILED::equals).hasSize((int) checkedWrong);
        assertThat(statuses).isSubsetOf(401, 429, 201);
        int right = statuses.get(36);
        if (right == 429) {
            // the lock engaged before the right password was checked: it stays out, and five guesses were all
            assertThat(events).containsOnly(FAILED).hasSize(LoginLock.FREE_FAILURES);
            assertThat(signIn(email, "password-" + email)).isEqualTo(429);
        } else {
            // the right password was one of the five the lock lets through, and it forgot their failures: at most
            // five more followed it
            assertThat(right).isEqualTo(201);
            int success = events.indexOf(SUCCEEDED);
            assertThat(success).isBetween(0, LoginLock.FREE_FAILURES - 1);
            assertThat(events.subList(success + 1, events.size())).doesNotContain(SUCCEEDED)
                    .hasSizeLessThanOrEqualTo(LoginLock.FREE_FAILURES);
        }
    }

    @Test
    void givenFourTypos_whenAScriptSendsTheRightPasswordOnTwentyRequestsAtOnce_thenEveryOneIsAccepted() {
        // given: one failure short of the lock, so only one check may be in flight
        String email = "burst-script@example.com";
        newUser(email);
        for (int i = 0; i < LoginLock.FREE_FAILURES - 1; i++) {
            assertThat(signIn(email, "typo-" + i)).isEqualTo(401);
        }
        // when
        List<Integer> statuses = burst(email, java.util.Collections.nCopies(20, "password-" + email));
        // then: requests with the same e-mail and password share one check (and its claim): none is locked out
        assertThat(statuses).containsOnly(201);
        assertThat(recordedFailures(email)).isZero();
    }
}
