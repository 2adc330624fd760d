package ai.convo.query.locale;

import ai.convo.contract.locale.LocaleRecord;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.ListResponses;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.ReadYourWrites;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.KeysetLists;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

@RestController
public class LocaleQueryController {

    static final ListDefinition LIST = new ListDefinition("locales", "locale_view", Map.of(
            "name", Column.text("lower(name)"),
            "nluLanguage", Column.text("nlu_language"),
            "primary", Column.bool("is_primary"),
            "referenceId", Column.text("reference_id"),
            "fallbackLocaleReference", Column.text("coalesce(fallback_locale_reference, '')"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    private final DatabaseClient db;
    private final KeysetLists lists;
    private final ReadYourWrites consistency;

    public LocaleQueryController(DatabaseClient db, KeysetLists lists, ReadYourWrites consistency) {
        this.db = db;
        this.lists = lists;
        this.consistency = consistency;
    }

    /** The locales of one project ({@code projectId}), or of the whole organisation without it. */
    @GetMapping("/v2.0/locales")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String projectId = QueryParams.optionalId(exchange, "projectId");
        String org = caller.organisationId();
        Scope scope = projectId == null
                ? new Scope("organisation_id = :org", Map.of("org", org), "locales|" + org)
                : new Scope("organisation_id = :org AND project_id = :project", Map.of("org", org, "project", projectId),
                        "locales|" + org + "|" + projectId);
        Mono<Boolean> parentVisible = projectId == null ? Mono.just(true)
                : db.sql("SELECT 1 FROM project_view WHERE id = :id AND organisation_id = :org")
                        .bind("id", projectId).bind("org", org).map(row -> true).one().defaultIfEmpty(false);
        return consistency.await(exchange)
                .then(parentVisible)
                .flatMap(visible -> visible ? lists.page(LIST, scope, request, LocaleQueryController::wire)
                        : Mono.error(ApiProblem.notFound("Project " + projectId + " does not exist.")))
                .map(page -> ListResponses.page(exchange, media, page));
    }

    @GetMapping("/v2.0/locales/{localeId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String localeId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("localeId", localeId);
        return consistency.await(exchange)
                .then(db.sql("SELECT * FROM locale_view WHERE id = :id AND organisation_id = :org")
                        .bind("id", localeId).bind("org", caller.organisationId())
                        .map(LocaleQueryController::wire).one())
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Locale " + localeId + " does not exist.")))
                .map(locale -> ApiResponses.ok(exchange, media, new Representation.Single("locale", locale)));
    }

    static Map<String, Object> wire(Readable row) {
        return new LocaleRecord(row.get("id", String.class), row.get("reference_id", String.class),
                row.get("name", String.class), Boolean.TRUE.equals(row.get("is_primary", Boolean.class)),
                row.get("nlu_language", String.class), row.get("fallback_locale_reference", String.class),
                row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class)).toWire();
    }
}
