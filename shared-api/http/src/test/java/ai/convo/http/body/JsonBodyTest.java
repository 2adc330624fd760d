package ai.convo.http.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ai.convo.contract.locale.NluLanguage;
import ai.convo.http.problem.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class JsonBodyTest {

    private static final String ID = "0123456789abcdef01234567";

    private static MockServerWebExchange exchange(String contentType) {
        MockServerHttpRequest.BodyBuilder request = MockServerHttpRequest.patch("/new/v2.0/locales/" + ID);
        if (contentType != null) {
            request.header(HttpHeaders.CONTENT_TYPE, contentType);
        }
        return MockServerWebExchange.from(request.build());
    }

    private static JsonBody parse(String json) {
        return JsonBody.parse(exchange("application/json"), json.getBytes(StandardCharsets.UTF_8), true);
    }

    private static ApiProblem problemOf(Runnable action) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, action::run);
        assertThat(problem).as("an ApiProblem").isNotNull();
        return problem;
    }

    // ---- parsing

    @Test
    void givenMalformedJson_whenParsing_then400WithLineAndColumn() {
        // given
        String json = "{\n  \"name\": }";

        // when
        ApiProblem problem = problemOf(() -> parse(json));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.code()).isEqualTo("1000");
        assertThat(problem.detail()).matches("The request body is not valid JSON at line 2, column \\d+\\.");
    }

    @Test
    void givenTruncatedJson_whenParsing_then400NotValidJson() {
        // given / when
        ApiProblem problem = problemOf(() -> parse("{\"name\": \"Ger"));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.detail()).startsWith("The request body is not valid JSON");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1, 2]", "\"text\"", "42", "true", "null"})
    void givenValidJsonThatIsNotAnObject_whenParsing_then400(String json) {
        // given / when
        ApiProblem problem = problemOf(() -> parse(json));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.detail()).isEqualTo("The request body must be a JSON object.");
    }

    @Test
    void givenTextPlainContentType_whenParsing_then415() {
        // given
        MockServerWebExchange exchange = exchange("text/plain");

        // when
        ApiProblem problem = problemOf(() -> JsonBody.parse(exchange, "{}".getBytes(StandardCharsets.UTF_8), true));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
        assertThat(problem.detail()).contains("text/plain").contains("application/json");
    }

    @Test
    void givenAJsonSuffixOrNoContentType_whenParsing_thenTheBodyIsRead() {
        // given
        byte[] raw = "{\"name\":\"German\"}".getBytes(StandardCharsets.UTF_8);

        // when
        JsonBody mergePatch = JsonBody.parse(exchange("application/merge-patch+json"), raw, true);
        JsonBody withCharset = JsonBody.parse(exchange("application/json;charset=UTF-8"), raw, true);
        JsonBody noType = JsonBody.parse(exchange(null), raw, true);

        // then
        assertThat(mergePatch.requiredString("name", 1, 50)).isEqualTo("German");
        assertThat(withCharset.requiredString("name", 1, 50)).isEqualTo("German");
        assertThat(noType.requiredString("name", 1, 50)).isEqualTo("German");
    }

    @Test
    void givenAnEmptyBody_whenRequired_then400() {
        // given / when
        ApiProblem problem = problemOf(() -> JsonBody.parse(exchange("application/json"), new byte[0], true));

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.detail()).contains("required");
    }

    @Test
    void givenAnEmptyBody_whenOptional_thenAnEmptyObjectWhateverTheContentType() {
        // given / when
        JsonBody body = JsonBody.parse(exchange("text/plain"), new byte[0], false);

        // then
        assertThat(body.has("name")).isFalse();
        body.validate();
    }

    // ---- fields

    @Test
    void givenAnUnknownField_whenOnlyKnownFieldsAreAllowed_then400ListingTheUnknownFieldAndTheAllowedOnes() {
        // given
        JsonBody body = parse("{\"name\":\"German\",\"nmae\":\"typo\"}").allowOnly(JsonBody.fields("name", "primary"));

        // when
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.details()).containsOnlyKeys("nmae");
        assertThat(problem.details().get("nmae")).isEqualTo("unknown field; allowed: name, primary");
        assertThat(problem.detail()).contains("nmae unknown field");
    }

    @Test
    void givenAStringForABoolean_whenReading_thenTheFieldIsReported() {
        // given
        JsonBody body = parse("{\"primary\":\"yes\"}");

        // when
        Boolean primary = body.optionalBoolean("primary");
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(primary).isNull();
        assertThat(problem.details()).containsEntry("primary", "must be true or false; got 'yes'");
    }

    @Test
    void givenANumberForAString_whenReading_thenTheFieldIsReported() {
        // given
        JsonBody body = parse("{\"name\":42}");

        // when
        String name = body.optionalString("name", 1, 50);
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(name).isNull();
        assertThat(problem.details()).containsEntry("name", "must be a string of 1 to 50 characters; got 42");
    }

    @Test
    void givenABlankOrTooLongString_whenReading_thenTheLengthRuleIsReported() {
        // given
        JsonBody body = parse("{\"name\":\"   \",\"description\":\"" + "d".repeat(11) + "\"}");

        // when
        body.requiredString("name", 1, 50);
        body.optionalString("description", 0, 10);
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat((String) problem.details().get("name")).contains("(not blank)");
        assertThat((String) problem.details().get("description")).contains("0 to 10").contains("got 11 characters");
    }

    @Test
    void givenAnEnumValueNotAllowed_whenReading_thenTheAllowedValuesAreListed() {
        // given
        JsonBody body = parse("{\"nluLanguage\":\"en-us\"}");

        // when
        NluLanguage language = body.optionalEnum("nluLanguage", NluLanguage::fromCode, NluLanguage.codes());
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(language).isNull();
        String detail = (String) problem.details().get("nluLanguage");
        assertThat(detail).startsWith("must be one of ge-GE, da-DK,").contains("en-US").contains("ta-IN")
                .endsWith("; got 'en-us'");
    }

    @Test
    void givenAValidEnumValue_whenReading_thenItIsParsed() {
        // given
        JsonBody body = parse("{\"nluLanguage\":\"de-DE\"}");

        // when / then
        assertThat(body.requiredEnum("nluLanguage", NluLanguage::fromCode, NluLanguage.codes()))
                .isEqualTo(NluLanguage.DE_DE);
        body.validate();
    }

    @Test
    void givenSeveralWrongFields_whenValidating_thenOneProblemListsEveryField() {
        // given
        JsonBody body = parse("{\"name\":5,\"primary\":\"no\",\"nluLanguage\":\"xx-XX\",\"limit\":1.5,"
                + "\"fallbackLocaleReference\":\"short\",\"extra\":true}")
                .allowOnly(JsonBody.fields("name", "primary", "nluLanguage", "limit", "fallbackLocaleReference"));

        // when
        body.optionalString("name", 1, 50);
        body.optionalBoolean("primary");
        body.optionalEnum("nluLanguage", NluLanguage::fromCode, NluLanguage.codes());
        body.optionalLong("limit", 1, 100);
        body.optionalId("fallbackLocaleReference");
        body.requiredString("message", 1, 10);
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.details()).containsOnlyKeys("extra", "name", "primary", "nluLanguage", "limit",
                "fallbackLocaleReference", "message");
        assertThat(problem.detail()).startsWith("The request body is invalid: ");
        for (String field : List.of("extra", "name", "primary", "nluLanguage", "limit", "fallbackLocaleReference",
                "message")) {
            assertThat(problem.detail()).contains(field + " ");
        }
        assertThat((String) problem.details().get("message")).startsWith("is required");
    }

    @Test
    void givenOnlyValidFields_whenValidating_thenNoProblem() {
        // given
        JsonBody body = parse("{\"name\":\"German\",\"primary\":true,\"until\":1700000000}")
                .allowOnly(JsonBody.fields("name", "primary", "until"));

        // when
        String name = body.requiredString("name", 1, 50);
        Boolean primary = body.optionalBoolean("primary");
        Long until = body.requiredLong("until", 0, 2_147_483_647L);
        body.validate();

        // then
        assertThat(name).isEqualTo("German");
        assertThat(primary).isTrue();
        assertThat(until).isEqualTo(1_700_000_000L);
    }

    @Test
    void givenAnIntegerOutOfRange_whenReading_thenTheRangeIsReported() {
        // given
        JsonBody body = parse("{\"until\":2147483648}");

        // when
        Long until = body.requiredLong("until", 0, 2_147_483_647L);
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(until).isNull();
        assertThat(problem.details()).containsEntry("until", "must be an integer from 0 to 2147483647; got 2147483648");
    }

    // ---- explicit null versus absent

    @Test
    void givenAnExplicitNullId_whenReading_thenNullButMarkedAsExplicitNull() {
        // given
        JsonBody body = parse("{\"fallbackLocaleReference\":null}");

        // when
        String id = body.optionalId("fallbackLocaleReference");

        // then
        assertThat(id).isNull();
        assertThat(body.has("fallbackLocaleReference")).isTrue();
        assertThat(body.isNull("fallbackLocaleReference")).isTrue();
        body.validate();
    }

    @Test
    void givenAnAbsentId_whenReading_thenNullAndNotMarkedAsExplicitNull() {
        // given
        JsonBody body = parse("{}");

        // when
        String id = body.optionalId("fallbackLocaleReference");

        // then
        assertThat(id).isNull();
        assertThat(body.has("fallbackLocaleReference")).isFalse();
        assertThat(body.isNull("fallbackLocaleReference")).isFalse();
        body.validate();
    }

    @Test
    void givenAValidId_whenReading_thenTheIdIsReturned() {
        // given
        JsonBody body = parse("{\"fallbackLocaleReference\":\"" + ID + "\"}");

        // when / then
        assertThat(body.optionalId("fallbackLocaleReference")).isEqualTo(ID);
        assertThat(body.isNull("fallbackLocaleReference")).isFalse();
        body.validate();
    }

    @Test
    void givenAnExplicitNullForARequiredId_whenReading_thenItIsReportedAsRequired() {
        // given
        JsonBody body = parse("{\"projectId\":null}");

        // when
        body.requiredId("projectId");
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat(problem.details()).containsEntry("projectId", "is required: an id of 24 characters [a-z0-9]");
    }

    @Test
    void givenAnExplicitNullForAnOptionalString_whenReading_thenItIsRefused() {
        // given
        JsonBody body = parse("{\"name\":null}");

        // when
        body.optionalString("name", 1, 50);
        ApiProblem problem = problemOf(body::validate);

        // then
        assertThat((String) problem.details().get("name")).contains("not null");
    }
}
