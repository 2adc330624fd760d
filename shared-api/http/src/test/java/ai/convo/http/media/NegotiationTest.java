package ai.convo.http.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ai.convo.http.problem.ApiProblem;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class NegotiationTest {

    private static final List<String> ALLOWED =
            List.of("application/json", "application/hal+json", "application/xml", "text/xml", "text/csv");

    private static ApiProblem refusal(String accept, ApiMedia operationDefault) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> Negotiation.choose(accept, operationDefault));
        assertThat(problem).as("Accept '%s' must be refused", accept).isNotNull();
        return problem;
    }

    @Test
    void givenNoAcceptHeader_whenNegotiating_thenTheOperationDefaultIsChosen() {
        // given
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/new/v2.0/functions"));

        // when
        ApiMedia chosen = Negotiation.negotiate(exchange, ApiMedia.HAL);

        // then
        assertThat(chosen).isEqualTo(ApiMedia.HAL);
        assertThat(Negotiation.chosen(exchange)).isEqualTo(ApiMedia.HAL);
    }

    @Test
    void givenABlankAcceptHeader_whenNegotiating_thenTheOperationDefaultIsChosen() {
        // given / when / then
        assertThat(Negotiation.choose("", ApiMedia.JSON)).isEqualTo(ApiMedia.JSON);
        assertThat(Negotiation.choose("  ", ApiMedia.HAL)).isEqualTo(ApiMedia.HAL);
    }

    @Test
    void givenAcceptAnything_whenNegotiating_thenTheOperationDefaultIsChosen() {
        // given / when / then
        assertThat(Negotiation.choose("*/*", ApiMedia.HAL)).isEqualTo(ApiMedia.HAL);
        assertThat(Negotiation.choose("*/*", ApiMedia.JSON)).isEqualTo(ApiMedia.JSON);
    }

    @ParameterizedTest
    @CsvSource({
            "application/json, JSON",
            "application/hal+json, HAL",
            "application/xml, XML",
            "text/xml, TEXT_XML",
            "text/csv, CSV",
            "APPLICATION/JSON, JSON",
            "application/json;charset=UTF-8, JSON",
    })
    void givenOneOfTheFiveTypes_whenNegotiating_thenThatTypeIsChosenWhateverTheDefault(String accept, ApiMedia expected) {
        // given an operation whose default differs from every asked type
        for (ApiMedia operationDefault : ApiMedia.values()) {
            // when
            ApiMedia chosen = Negotiation.choose(accept, operationDefault);

            // then
            assertThat(chosen).as("Accept %s with default %s", accept, operationDefault).isEqualTo(expected);
        }
    }

    @Test
    void givenAnAcceptHeader_whenNegotiatingThroughTheExchange_thenTheChoiceIsRememberedForProblemBodies() {
        // given
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/new/v2.0/functions")
                .header(HttpHeaders.ACCEPT, "text/csv"));

        // when
        ApiMedia chosen = Negotiation.negotiate(exchange, ApiMedia.JSON);

        // then
        assertThat(chosen).isEqualTo(ApiMedia.CSV);
        assertThat(Negotiation.chosen(exchange)).isEqualTo(ApiMedia.CSV);
    }

    @Test
    void givenQualityValues_whenNegotiating_thenTheHighestQualityWins() {
        // given / when / then
        assertThat(Negotiation.choose("text/csv;q=0.5, application/xml", ApiMedia.JSON)).isEqualTo(ApiMedia.XML);
        assertThat(Negotiation.choose("application/xml;q=0.1, text/csv;q=0.9", ApiMedia.JSON)).isEqualTo(ApiMedia.CSV);
        assertThat(Negotiation.choose("*/*;q=0.1, text/xml;q=0.2", ApiMedia.JSON)).isEqualTo(ApiMedia.TEXT_XML);
    }

    @Test
    void givenEqualQualities_whenNegotiating_thenTheClientsOrderDecides() {
        // given / when / then
        assertThat(Negotiation.choose("text/csv, application/json", ApiMedia.HAL)).isEqualTo(ApiMedia.CSV);
        assertThat(Negotiation.choose("application/json, text/csv", ApiMedia.HAL)).isEqualTo(ApiMedia.JSON);
    }

    @Test
    void givenAnUnsupportedTypeFirst_whenASupportedOneFollows_thenTheSupportedOneIsChosen() {
        // given / when / then
        assertThat(Negotiation.choose("image/png, text/csv;q=0.3", ApiMedia.JSON)).isEqualTo(ApiMedia.CSV);
    }

    @Test
    void givenAQualityOfZero_whenItIsTheOnlyType_thenItIsRefused() {
        // given / when
        ApiProblem problem = refusal("application/json;q=0", ApiMedia.JSON);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.NOT_ACCEPTABLE);
    }

    @Test
    void givenApplicationWildcard_whenTheDefaultIsHal_thenHal() {
        // given / when / then
        assertThat(Negotiation.choose("application/*", ApiMedia.HAL)).isEqualTo(ApiMedia.HAL);
    }

    @Test
    void givenApplicationWildcard_whenTheDefaultIsText_thenJson() {
        // given / when / then
        assertThat(Negotiation.choose("application/*", ApiMedia.CSV)).isEqualTo(ApiMedia.JSON);
    }

    @Test
    void givenTextWildcard_whenNegotiating_thenATextTypeIsChosen() {
        // given / when / then
        assertThat(Negotiation.choose("text/*", ApiMedia.CSV)).isEqualTo(ApiMedia.CSV);
        assertThat(Negotiation.choose("text/*", ApiMedia.JSON)).isIn(ApiMedia.TEXT_XML, ApiMedia.CSV);
    }

    @ParameterizedTest
    @ValueSource(strings = {"image/png", "application/pdf", "text/html", "image/*", "application/json;q=0, text/plain"})
    void givenOnlyUnsupportedTypes_whenNegotiating_then406ListingTheAllowedTypes(String accept) {
        // given / when
        ApiProblem problem = refusal(accept, ApiMedia.JSON);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.NOT_ACCEPTABLE);
        assertThat(problem.code()).isEqualTo("1000");
        assertThat(problem.detail()).contains(accept)
                .contains("Allowed: application/json, application/hal+json, application/xml, text/xml, text/csv");
        assertThat(problem.details()).containsOnlyKeys("allowed");
        assertThat(problem.details().get("allowed")).isEqualTo(ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "application/json;q=abc", "text/", "/json"})
    void givenAMalformedAcceptHeader_whenNegotiating_then406(String accept) {
        // given / when
        ApiProblem problem = refusal(accept, ApiMedia.JSON);

        // then
        assertThat(problem.status()).isEqualTo(HttpStatus.NOT_ACCEPTABLE);
        assertThat(problem.detail()).contains("is not a valid media type list");
        assertThat(problem.details().get("allowed")).isEqualTo(ALLOWED);
    }

    @Test
    void givenAnUnsupportedAcceptOnTheExchange_whenNegotiating_thenNothingIsRememberedAndTheProblemIsThrown() {
        // given
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/new/v2.0/functions")
                .header(HttpHeaders.ACCEPT, "application/pdf"));

        // when
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> Negotiation.negotiate(exchange, ApiMedia.JSON));

        // then
        assertThat(problem).isNotNull();
        assertThat(problem.status()).isEqualTo(HttpStatus.NOT_ACCEPTABLE);
        assertThat(Negotiation.chosen(exchange)).isNull();
    }
}
