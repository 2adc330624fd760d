package ai.convo.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpMethod;

class RoutePolicyTest {

    private static final String ID = "0123456789abcdef01234567";
    private static final String ID2 = "76543210fedcba9876543210";

    private static final Set<AuthScheme> KEYS_AND_CONTACT_CENTER =
            EnumSet.of(AuthScheme.API_KEY_HEADER, AuthScheme.API_KEY_QUERY, AuthScheme.CONTACT_CENTER);
    private static final Set<AuthScheme> DEFAULT_FOUR = EnumSet.of(AuthScheme.API_KEY_HEADER, AuthScheme.API_KEY_QUERY,
            AuthScheme.CONTACT_CENTER, AuthScheme.BASIC);
    private static final Set<AuthScheme> ALL_FIVE = EnumSet.of(AuthScheme.API_KEY_HEADER, AuthScheme.API_KEY_QUERY,
            AuthScheme.CONTACT_CENTER, AuthScheme.BASIC, AuthScheme.BEARER);

    private final RoutePolicy policy = new RoutePolicy("/new");

    @Test
    void givenTheTokenList_whenAskingItsSchemes_thenHeaderKeyQueryKeyAndContactCenterOnly() {
        // given / when
        Set<AuthScheme> schemes = policy.allowed(HttpMethod.GET, "/new/v2.0/projects/" + ID + "/snippets");

        // then
        assertThat(schemes).containsExactlyInAnyOrderElementsOf(KEYS_AND_CONTACT_CENTER);
        assertThat(schemes).doesNotContain(AuthScheme.BASIC, AuthScheme.BEARER);
    }

    @Test
    void givenTheKnowledgeSourceUpdate_whenAskingItsSchemes_thenHeaderKeyQueryKeyAndContactCenterOnly() {
        // given / when
        Set<AuthScheme> schemes = policy.allowed(HttpMethod.PATCH,
                "/new/v2.0/knowledgestores/" + ID + "/sources/" + ID2);

        // then
        assertThat(schemes).containsExactlyInAnyOrderElementsOf(KEYS_AND_CONTACT_CENTER);
    }

    @Test
    void givenTheSystemMessageCreation_whenAskingItsSchemes_thenBasicOnly() {
        // given / when
        Set<AuthScheme> schemes = policy.allowed(HttpMethod.POST, "/new/management/v2.0/system/createsystemmessage");

        // then
        assertThat(schemes).containsExactly(AuthScheme.BASIC);
    }

    @ParameterizedTest
    @CsvSource({
            "/new/v3.0/callcounter",
            "/new/v2.0/flows/" + ID + "/states",
            "/new/v2.0/flows/" + ID + "/intents",
    })
    void givenAnOperationWithTheDefaultAlternatives_whenAskingItsSchemes_thenTheFourWithoutBearer(String path) {
        // given / when
        Set<AuthScheme> schemes = policy.allowed(HttpMethod.GET, path);

        // then
        assertThat(schemes).containsExactlyInAnyOrderElementsOf(DEFAULT_FOUR);
        assertThat(schemes).doesNotContain(AuthScheme.BEARER);
    }

    @ParameterizedTest
    @CsvSource({
            "PATCH, /new/v2.0/locales/" + ID,
            "GET, /new/v2.0/functions",
            "POST, /new/v2.0/snapshots/" + ID + "/restore",
            "POST, /new/v2.0/tasks/" + ID + "/cancel",
            "DELETE, /new/v2.0/external/alexa/users/me",
            "GET, /new/v2.0/nothing/here",
            "POST, /new/v2.0/projects/" + ID + "/snippets",
            "GET, /new/management/v2.0/system/createsystemmessage",
    })
    void givenAnOperationWithoutASpecialRule_whenAskingItsSchemes_thenAllFive(String method, String path) {
        // given / when
        Set<AuthScheme> schemes = policy.allowed(HttpMethod.valueOf(method), path);

        // then
        assertThat(schemes).containsExactlyInAnyOrderElementsOf(ALL_FIVE);
    }

    @Test
    void givenAPathOutsideTheBasePath_whenAskingItsSchemes_thenTheSpecialRulesDoNotApply() {
        // given / when
        Set<AuthScheme> schemes = policy.allowed(HttpMethod.POST, "/management/v2.0/system/createsystemmessage");

        // then
        assertThat(schemes).containsExactlyInAnyOrderElementsOf(ALL_FIVE);
    }

    @Test
    void givenTheRootBasePath_whenAskingItsSchemes_thenPathsAreMatchedWithoutPrefix() {
        // given
        RoutePolicy atRoot = new RoutePolicy("/");

        // when / then
        assertThat(atRoot.allowed(HttpMethod.POST, "/management/v2.0/system/createsystemmessage"))
                .containsExactly(AuthScheme.BASIC);
        assertThat(atRoot.allowed(HttpMethod.GET, "/v3.0/callcounter")).containsExactlyInAnyOrderElementsOf(DEFAULT_FOUR);
        assertThat(atRoot.isPublic(HttpMethod.GET, "/v2.0/system/message")).isTrue();
    }

    @Test
    void givenAnotherBasePath_whenAskingItsSchemes_thenThatPrefixIsStripped() {
        // given
        RoutePolicy policyAtApi = new RoutePolicy("/api");

        // when / then
        assertThat(policyAtApi.allowed(HttpMethod.GET, "/api/v2.0/projects/" + ID + "/snippets"))
                .containsExactlyInAnyOrderElementsOf(KEYS_AND_CONTACT_CENTER);
        assertThat(policyAtApi.allowed(HttpMethod.GET, "/new/v2.0/projects/" + ID + "/snippets"))
                .containsExactlyInAnyOrderElementsOf(ALL_FIVE);
    }

    @Test
    void givenThePublicRoutes_whenReadWithGetOrHead_thenTheyArePublic() {
        // given / when / then
        assertThat(policy.isPublic(HttpMethod.GET, "/new/v2.0/system/message")).isTrue();
        assertThat(policy.isPublic(HttpMethod.HEAD, "/new/v2.0/system/message")).isTrue();
        assertThat(policy.isPublic(HttpMethod.GET, "/new/health")).isTrue();
        assertThat(policy.isPublic(HttpMethod.HEAD, "/new/health")).isTrue();
    }

    @Test
    void givenThePublicRoutes_whenWrittenToWithOtherMethods_thenTheyAreNotPublic() {
        // given / when / then
        assertThat(policy.isPublic(HttpMethod.POST, "/new/v2.0/system/message")).isFalse();
        assertThat(policy.isPublic(HttpMethod.POST, "/new/health")).isFalse();
        assertThat(policy.isPublic(HttpMethod.DELETE, "/new/v2.0/system/message")).isFalse();
    }

    @Test
    void givenOtherRoutes_whenAskingIfPublic_thenTheyAreNot() {
        // given / when / then
        assertThat(policy.isPublic(HttpMethod.GET, "/new/v2.0/functions")).isFalse();
        assertThat(policy.isPublic(HttpMethod.POST, "/new/management/v2.0/system/createsystemmessage")).isFalse();
        assertThat(policy.isPublic(HttpMethod.GET, "/new/v2.0/system/message/extra")).isFalse();
        assertThat(policy.isPublic(HttpMethod.GET, "/v2.0/system/message")).as("outside the base path").isFalse();
        assertThat(policy.isPublic(HttpMethod.GET, "/newer/health")).as("a longer prefix is not the base path").isFalse();
        assertThat(policy.isPublic(HttpMethod.GET, "/newv2.0/system/message")).as("no separator after the base path")
                .isFalse();
    }
}
