package ai.convo.query.callcounter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.convo.http.problem.ApiProblem;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;

/** Which days a request asks for, and which of them are reported. */
class CallCounterPeriodTest {

    static final LocalDate TODAY = LocalDate.of(2026, 3, 15);

    static MultiValueMap<String, String> query(String query) {
        return query.isEmpty() ? new LinkedMultiValueMap<>()
                : UriComponentsBuilder.fromUriString("/?" + query).build().getQueryParams();
    }

    static CallCounterPeriod parse(String query) {
        return CallCounterPeriod.parse(query(query), TODAY);
    }

    @ParameterizedTest
    @CsvSource({
            "year=2025,                       2025-01-01, 2025-12-31",
            "year=2025&month=2,               2025-02-01, 2025-02-28",
            "year=2024&month=02,              2024-02-01, 2024-02-29",
            "from=2025-03-01&to=2025-03-01,   2025-03-01, 2025-03-01",
            "from=2025-01-01&to=2026-01-01,   2025-01-01, 2026-01-01",
            "'',                              2026-03-01, 2026-03-31"})
    void theRequestedDays(String query, LocalDate from, LocalDate to) {
        assertThat(parse(query)).isEqualTo(new CallCounterPeriod(from, to));
    }

    @Test
    void withoutParametersTheMonthOfTheNewestDayIsMeant() {
        assertThat(CallCounterPeriod.parse(query(""), LocalDate.of(2026, 4, 2)))
                .isEqualTo(new CallCounterPeriod(LocalDate.of(2026, 3, 1), LocalDate.of(2026, 3, 31)));
    }

    @ParameterizedTest
    @CsvSource({
            "year=2025x,                      year",
            "year=25,                         year",
            "year=2025&month=13,              month",
            "year=2025&month=0,               month",
            "year=2025&month=march,           month",
            "month=3,                         year",
            "from=2025-03-01,                 to",
            "to=2025-03-01,                   from",
            "from=2025-02-30&to=2025-03-01,   from",
            "from=20250301&to=2025-03-02,     from",
            "from=2025-03-02&to=2025-03-01,   to",
            "from=2025-01-01&to=2026-01-02,   to",
            "year=2025&from=2025-01-01&to=2025-01-02, year"})
    void malformedOrContradictoryParametersAreA400NamingTheParameter(String query, String parameter) {
        assertThatThrownBy(() -> parse(query))
                .isInstanceOfSatisfying(ApiProblem.class, problem -> {
                    assertThat(problem.status().value()).isEqualTo(400);
                    assertThat(problem.details()).containsOnlyKeys(parameter);
                    assertThat(problem.detail()).startsWith(parameter);
                });
    }

    @ParameterizedTest
    @CsvSource({
            "2024-12-01, 2025-01-03, 2025-01-01, 2025-01-03",
            "2026-03-01, 2026-03-31, 2026-03-01, 2026-03-13",
            "2026-03-13, 2026-03-13, 2026-03-13, 2026-03-13"})
    void onlyDaysFrom2025UpToTwoDaysAgoAreReported(LocalDate from, LocalDate to, LocalDate first, LocalDate last) {
        assertThat(new CallCounterPeriod(from, to).available(TODAY)).contains(new CallCounterPeriod(first, last));
    }

    @ParameterizedTest
    @CsvSource({"2024-01-01, 2024-12-31", "2026-03-14, 2026-03-20", "2027-01-01, 2027-01-31"})
    void aPeriodEntirelyOutsideHasNoReportedDays(LocalDate from, LocalDate to) {
        assertThat(new CallCounterPeriod(from, to).available(TODAY)).isEmpty();
    }
}
