package ai.convo.http.list;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ai.convo.http.problem.ApiProblem;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class ListRequestTest {

    private static final Set<String> SORTABLE = Set.of("name", "createdAt", "lastChanged");
    private static final String CURSOR = "0123456789abcdefghijklmn";

    private static MockServerWebExchange query(String... nameValuePairs) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/new/v2.0/functions");
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            request.queryParam(nameValuePairs[i], nameValuePairs[i + 1]);
        }
        return MockServerWebExchange.from(request.build());
    }

    private static ListRequest parse(String... nameValuePairs) {
        return ListRequest.parse(query(nameValuePairs), SORTABLE);
    }

    /** Parses, expects a 400 whose details name the parameter, and returns the problem. */
    private static ApiProblem badRequest(String parameter, String... nameValuePairs) {
        ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> parse(nameValuePairs));
        assertThat(problem).as("expected a 400 for %s", String.join("&", nameValuePairs)).isNotNull();
        assertThat(problem.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(problem.code()).isEqualTo("1000");
        assertThat(problem.details()).containsKey(parameter);
        assertThat(problem.details().get(parameter)).isEqualTo(problem.detail());
        return problem;
    }

    @Test
    void givenNoParameters_whenParsing_thenLimit25Skip0AndNothingElse() {
        // given / when
        ListRequest request = parse();

        // then
        assertThat(request.limit()).isEqualTo(25);
        assertThat(request.skip()).isZero();
        assertThat(request.filter()).isNull();
        assertThat(request.sort()).isEmpty();
        assertThat(request.next()).isNull();
        assertThat(request.previous()).isNull();
        assertThat(request.hasCursor()).isFalse();
    }

    @Test
    void givenValidValues_whenParsing_thenTheyAreTaken() {
        // given / when
        ListRequest request = parse("limit", "100", "skip", "40", "filter", "Ger");

        // then
        assertThat(request.limit()).isEqualTo(100);
        assertThat(request.skip()).isEqualTo(40);
        assertThat(request.filter()).isEqualTo("Ger");
    }

    @Test
    void givenTheSmallestLimit_whenParsing_thenOneIsAccepted() {
        // given / when / then
        assertThat(parse("limit", "1").limit()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "101", "-1", "abc", "1.5", "", "99999999999999999999"})
    void givenALimitOutOfRangeOrNotAnInteger_whenParsing_then400NamingLimit(String limit) {
        // given / when
        ApiProblem problem = badRequest("limit", "limit", limit);

        // then
        assertThat(problem.detail()).startsWith("limit must be an integer from 1 to 100; got ");
    }

    @Test
    void givenANegativeSkip_whenParsing_then400NamingSkip() {
        // given / when
        ApiProblem problem = badRequest("skip", "skip", "-1");

        // then
        assertThat(problem.detail()).contains("at least 0").contains("-1");
    }

    @Test
    void givenANonNumericSkip_whenParsing_then400NamingSkip() {
        // given / when / then
        badRequest("skip", "skip", "ten");
    }

    @Test
    void givenTheSameParameterTwiceWithDifferentValues_whenParsing_then400NamingIt() {
        // given / when
        ApiProblem problem = badRequest("limit", "limit", "10", "limit", "20");

        // then
        assertThat(problem.detail()).contains("2 times");
    }

    @Test
    void givenTheSameParameterTwiceWithTheSameValue_whenParsing_then400NamingItToo() {
        // given / when: one rule for every repeated parameter, whatever the values
        ApiProblem problem = badRequest("limit", "limit", "10", "limit", "10");

        // then
        assertThat(problem.detail()).contains("2 times").contains("give it once");
    }

    @ParameterizedTest
    @ValueSource(strings = {",", "name,", ",name", "name,,createdAt", " , "})
    void givenASortWithAnEmptyKey_whenParsing_then400NamingSortAndTheSortableFields(String sort) {
        // given / when
        ApiProblem problem = badRequest("sort", "sort", sort);

        // then
        assertThat(problem.detail()).contains("empty key").contains("createdAt, lastChanged, name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0661", "\u0661\u0660", "\uff11", "+5", " 5", "5 ", "0x10"})
    void givenALimitWithDigitsOtherThanAscii_whenParsing_then400NamingLimit(String limit) {
        // given / when / then: Arabic-Indic and full-width digits, a sign or spaces are not a number here
        badRequest("limit", "limit", limit.translateEscapes());
    }

    @Test
    void givenAnUnknownSortField_whenParsing_then400ListingTheSortableFields() {
        // given / when
        ApiProblem problem = badRequest("sort", "sort", "password:asc");

        // then
        assertThat(problem.detail()).contains("'password'").contains("createdAt, lastChanged, name");
    }

    @Test
    void givenABadSortDirection_whenParsing_then400NamingSort() {
        // given / when
        ApiProblem problem = badRequest("sort", "sort", "name:up");

        // then
        assertThat(problem.detail()).contains("'name'").contains("asc or desc").contains("'up'");
    }

    @Test
    void givenASortKeyWithTooManyParts_whenParsing_then400NamingSort() {
        // given / when / then
        badRequest("sort", "sort", "name:asc:desc");
    }

    @Test
    void givenAnEmptySort_whenParsing_then400NamingSort() {
        // given / when / then
        badRequest("sort", "sort", "");
    }

    @Test
    void givenADuplicateSortField_whenParsing_then400NamingSort() {
        // given / when
        ApiProblem problem = badRequest("sort", "sort", "name:asc,createdAt:desc,name:desc");

        // then
        assertThat(problem.detail()).contains("'name' appears more than once");
    }

    @Test
    void givenSeveralSortKeys_whenParsing_thenTheyAreKeptInOrderWithTheirDirections() {
        // given / when
        ListRequest request = parse("sort", "lastChanged:desc, name , createdAt:ASC");

        // then
        assertThat(request.sort()).containsExactly(
                new SortKey("lastChanged", false),
                new SortKey("name", true),
                new SortKey("createdAt", true));
        assertThat(request.sort()).extracting(SortKey::wire)
                .containsExactly("lastChanged:desc", "name:asc", "createdAt:asc");
    }

    @Test
    void givenAValidNextCursor_whenParsing_thenItIsKept() {
        // given / when
        ListRequest request = parse("next", CURSOR);

        // then
        assertThat(request.next()).isEqualTo(CURSOR);
        assertThat(request.previous()).isNull();
        assertThat(request.hasCursor()).isTrue();
    }

    @Test
    void givenAValidPreviousCursor_whenParsing_thenItIsKept() {
        // given / when
        ListRequest request = parse("previous", CURSOR);

        // then
        assertThat(request.previous()).isEqualTo(CURSOR);
        assertThat(request.hasCursor()).isTrue();
    }

    @Test
    void givenNextAndPrevious_whenParsing_then400() {
        // given / when
        ApiProblem problem = badRequest("next", "next", CURSOR, "previous", CURSOR);

        // then
        assertThat(problem.detail()).contains("next").contains("previous");
    }

    @ParameterizedTest
    @ValueSource(strings = {"short", "0123456789abcdefghijklm", "0123456789abcdefghijklmno", "0123456789ABCDEFGHIJKLMN",
            "0123456789abcdefghijkl-n"})
    void givenANextCursorThatIsNot24LowercaseAlphanumerics_whenParsing_then400NamingNext(String cursor) {
        // given / when / then
        badRequest("next", "next", cursor);
    }

    @Test
    void givenAMalformedPreviousCursor_whenParsing_then400NamingPrevious() {
        // given / when / then
        badRequest("previous", "previous", "not-a-cursor");
    }

    @Test
    void givenSkipWithANextCursor_whenParsing_then400NamingSkip() {
        // given / when
        ApiProblem problem = badRequest("skip", "skip", "10", "next", CURSOR);

        // then
        assertThat(problem.detail()).contains("cursor");
    }

    @Test
    void givenSkipWithAPreviousCursor_whenParsing_then400NamingSkip() {
        // given / when / then
        badRequest("skip", "skip", "3", "previous", CURSOR);
    }

    @Test
    void givenAFilterOf201Characters_whenParsing_then400NamingFilter() {
        // given / when
        ApiProblem problem = badRequest("filter", "filter", "x".repeat(201));

        // then
        assertThat(problem.detail()).contains("200").contains("201");
    }

    @Test
    void givenAFilterOf200Characters_whenParsing_thenItIsKept() {
        // given / when / then
        assertThat(parse("filter", "y".repeat(200)).filter()).hasSize(200);
    }

    @Test
    void givenAnEmptyFilter_whenParsing_thenThereIsNoFilter() {
        // given / when / then
        assertThat(parse("filter", "").filter()).isNull();
    }
}
