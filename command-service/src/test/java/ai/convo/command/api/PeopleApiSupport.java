package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Users made by the bootstrap administrator over HTTP, and requests sent with a key or Basic credentials. */
abstract class PeopleApiSupport extends ApiTestBase {

    WebTestClient.ResponseSpec send(String method, String uri, String auth, Object body) {
        WebTestClient.RequestBodySpec request = http.method(org.springframework.http.HttpMethod.valueOf(method)).uri(uri);
        if (auth.startsWith("Basic ")) {
            request.header("Authorization", auth);
        } else {
            request.header("X-API-Key", auth);
        }
        return body == null ? request.exchange()
                : request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @SuppressWarnings("unchecked")
    String createUser(String email, String password, List<String> roles) {
        Map<String, Object> created = send("POST", "/v2.0/users", ADMIN_KEY,
                Map.of("email", email, "name", "Colleague", "password", password, "roles", roles))
                .expectStatus().isCreated()
                .expectBody(Map.class).returnResult().getResponseBody();
        assertThat(created).doesNotContainKeys("password", "passwordHash");
        return (String) created.get("_id");
    }

    @SuppressWarnings("unchecked")
    String keyOf(String email, String password) {
        Map<String, Object> key = send("POST", "/v2.0/users/me/apikeys", basic(email, password), null)
                .expectStatus().isCreated().expectBody(Map.class).returnResult().getResponseBody();
        return (String) key.get("key");
    }

}
