package ai.convo.query.callcounter;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import ai.convo.query.readmodel.ReadModel;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code GET /v3.0/callcounter}: an organisation's call counters per UTC day, one entry for every day of the
 * requested period that is reported (2025-01-01 up to two days ago), days without calls as zeros.
 */
@RestController
class CallCounterQueryController {

    private final DatabaseClient db;

    public CallCounterQueryController(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    @GetMapping("/v3.0/callcounter")
    public Mono<ResponseEntity<byte[]>> counters(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        CallCounterPeriod requested = CallCounterPeriod.parse(exchange.getRequest().getQueryParams(), today);
        String named = QueryParams.optionalId(exchange, "organisationId");
        String organisationId = named == null ? caller.organisationId() : named;
        Mono<Boolean> visible = Mono.just(true);
        if (!organisationId.equals(caller.organisationId())) {
            if (!caller.isSystemAdmin()) {
                throw ApiProblem.forbidden("Only a system administrator can read another organisation's call "
                        + "counters; leave organisationId out to read your own.");
            }
            visible = db.sql("SELECT 1 FROM identity_organisation WHERE id = :id").bind("id", organisationId)
                    .map(row -> true).one().defaultIfEmpty(false);
        }
        Optional<CallCounterPeriod> period = requested.available(today);
        return visible
                .flatMap(exists -> exists ? Mono.just(true)
                        : Mono.error(ApiProblem.notFound("Organisation " + organisationId + " does not exist.")))
                .flatMap(ok -> period.map(p -> days(organisationId, p)).orElse(Mono.just(List.of())))
                .map(items -> ApiResponses.ok(exchange, media, representation(exchange, media, items)));
    }

    private Mono<List<Map<String, Object>>> days(String organisationId, CallCounterPeriod period) {
        return db.sql("SELECT day, processed_calls, billable_calls, call_minutes, max_concurrency FROM call_counter_day "
                        + "WHERE organisation_id = :org AND day BETWEEN :from AND :to")
                .bind("org", organisationId).bind("from", period.from()).bind("to", period.to())
                .map(row -> new CallCounterEntry(row.get("day", LocalDate.class), row.get("max_concurrency", Long.class),
                        row.get("call_minutes", Long.class), row.get("processed_calls", Long.class),
                        row.get("billable_calls", Long.class)))
                .all()
                .collectMap(CallCounterEntry::date)
                .map(stored -> {
                    List<Map<String, Object>> items = new ArrayList<>();
                    for (LocalDate day = period.from(); !day.isAfter(period.to()); day = day.plusDays(1)) {
                        CallCounterEntry entry = stored.get(day);
                        items.add((entry == null ? CallCounterEntry.empty(day) : entry).toWire());
                    }
                    return items;
                });
    }

    /** {@code {items: [...]}}; as CSV one row per day (a list's rows), since the object itself has no columns. */
    static Representation representation(ServerWebExchange exchange, ApiMedia media, List<Map<String, Object>> items) {
        if (media == ApiMedia.CSV) {
            return new Representation.Page(items, items.size(), null, null,
                    item -> exchange.getRequest().getPath().value());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", items);
        return new Representation.Single("callCounter", body);
    }

    /** One day of the call counter, as the specification's "Call counter entry". */
    record CallCounterEntry(LocalDate date, long maxConcurrency, long callMinutes, long processedCalls,
                            long billableCalls) {

        static CallCounterEntry empty(LocalDate date) {
            return new CallCounterEntry(date, 0, 0, 0, 0);
        }

        Map<String, Object> toWire() {
            Map<String, Object> wire = new LinkedHashMap<>();
            wire.put("day", date.getDayOfMonth());
            wire.put("month", date.getMonthValue());
            wire.put("year", date.getYear());
            wire.put("maxConcurrency", maxConcurrency);
            wire.put("callMinutes", callMinutes);
            wire.put("processedCalls", processedCalls);
            wire.put("billableCalls", billableCalls);
            return wire;
        }
    }
}
