package ai.convo.query.callcounter;

import ai.convo.contract.callcounter.CallCounterRules;
import ai.convo.http.problem.ApiProblem;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.util.MultiValueMap;

/**
 * The days a call counter request asks for: {@code year} (with an optional {@code month}), or {@code from} and
 * {@code to} (ISO dates, both inclusive, at most {@link #MAX_DAYS} days), or, without any of them, the month of
 * the newest available day. Malformed or contradictory parameters are a 400 naming the parameter.
 */
record CallCounterPeriod(LocalDate from, LocalDate to) {

    static final int MAX_DAYS = 366;
    private static final Pattern YEAR = Pattern.compile("^[0-9]{4}$");
    private static final Pattern MONTH = Pattern.compile("^[0-9]{1,2}$");
    private static final Pattern DATE = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");

    static CallCounterPeriod parse(MultiValueMap<String, String> query, LocalDate today) {
        String year = query.getFirst("year");
        String month = query.getFirst("month");
        String from = query.getFirst("from");
        String to = query.getFirst("to");
        boolean byMonth = year != null || month != null;
        boolean byRange = from != null || to != null;
        if (byMonth && byRange) {
            String name = year != null ? "year" : "month";
            throw ApiProblem.invalidParameter(name, name + " cannot be combined with from/to: ask either for a year "
                    + "(optionally with month) or for a range from/to.");
        }
        if (byRange) {
            LocalDate start = date("from", from);
            LocalDate end = date("to", to);
            if (end.isBefore(start)) {
                throw ApiProblem.invalidParameter("to", "to (" + end + ") must not be before from (" + start + ").");
            }
            long days = ChronoUnit.DAYS.between(start, end) + 1;
            if (days > MAX_DAYS) {
                throw ApiProblem.invalidParameter("to", "to must be at most " + (MAX_DAYS - 1) + " days after from: from/to "
                        + "cover " + days + " days, and at most " + MAX_DAYS + " days can be asked for at once.");
            }
            return new CallCounterPeriod(start, end);
        }
        if (byMonth) {
            if (year == null) {
                throw ApiProblem.invalidParameter("year", "year is required with month, e.g. year=2025&month=3.");
            }
            if (!YEAR.matcher(year).matches()) {
                throw ApiProblem.invalidParameter("year", "year must be a year of four digits, e.g. 2025; got '"
                        + shorten(year) + "'.");
            }
            int y = Integer.parseInt(year);
            if (month == null) {
                return new CallCounterPeriod(LocalDate.of(y, 1, 1), LocalDate.of(y, 12, 31));
            }
            int m = MONTH.matcher(month).matches() ? Integer.parseInt(month) : 0;
            if (m < 1 || m > 12) {
                throw ApiProblem.invalidParameter("month", "month must be a number from 1 to 12; got '"
                        + shorten(month) + "'.");
            }
            YearMonth yearMonth = YearMonth.of(y, m);
            return new CallCounterPeriod(yearMonth.atDay(1), yearMonth.atEndOfMonth());
        }
        YearMonth newest = YearMonth.from(newestDay(today));
        return new CallCounterPeriod(newest.atDay(1), newest.atEndOfMonth());
    }

    /** The newest day the counter reports: two days before today (UTC). */
    static LocalDate newestDay(LocalDate today) {
        return today.minusDays(CallCounterRules.DAYS_BACK);
    }

    /** The requested days that are reported (from 2025-01-01 up to two days ago); empty when none is. */
    Optional<CallCounterPeriod> available(LocalDate today) {
        LocalDate start = from.isBefore(CallCounterRules.FIRST_DAY) ? CallCounterRules.FIRST_DAY : from;
        LocalDate newest = newestDay(today);
        LocalDate end = to.isAfter(newest) ? newest : to;
        return end.isBefore(start) ? Optional.empty() : Optional.of(new CallCounterPeriod(start, end));
    }

    private static LocalDate date(String name, String value) {
        if (value == null || value.isEmpty()) {
            String other = name.equals("from") ? "to" : "from";
            throw ApiProblem.invalidParameter(name, name + " is required with " + other
                    + ": an ISO date like 2025-03-01 (both inclusive).");
        }
        if (DATE.matcher(value).matches()) {
            try {
                return LocalDate.parse(value);
            } catch (DateTimeParseException e) {
                // not a real day, e.g. 2025-02-30
            }
        }
        throw ApiProblem.invalidParameter(name, name + " must be an ISO date like 2025-03-01; got '"
                + shorten(value) + "'.");
    }

    private static String shorten(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
