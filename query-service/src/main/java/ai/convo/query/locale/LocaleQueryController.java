package ai.convo.query.locale;

import ai.convo.contract.locale.LocaleRecord;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

@RestController
class LocaleQueryController {

    static final ListDefinition LIST = new ListDefinition("locales", "locale_view", Map.of(
            "name", Column.text("lower(name)"),
            "nluLanguage", Column.text("nlu_language"),
            "primary", Column.bool("is_primary"),
            "referenceId", Column.text("reference_id"),
            "fallbackLocaleReference", Column.text("coalesce(fallback_locale_reference, '')"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    static final Reads.One ONE = new Reads.One("locale_view", "Locale", "locale", LocaleQueryController::wire);

    private final Reads reads;

    public LocaleQueryController(Reads reads) {
        this.reads = reads;
    }

    /** The locales of one project ({@code projectId}), or of the whole organisation without it. */
    @ListOf("LIST")
    @GetMapping("/v2.0/locales")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        String projectId = QueryParams.optionalId(exchange, "projectId");
        String org = caller.organisationId();
        Scope scope = Scope.projects("locales", org, caller.isOrganisationAdmin() ? null : caller.userId(), projectId);
        return reads.page(exchange, media, LIST, request, scope, Parent.row("project_view", projectId, org, "Project " + projectId), LocaleQueryController::wire);
    }

    @GetMapping("/v2.0/locales/{localeId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String localeId) {
        return reads.one(exchange, ApiMedia.JSON, ONE, "localeId", localeId, caller.organisationId());
    }

    static Map<String, Object> wire(Readable row) {
        return new LocaleRecord(row.get("id", String.class), row.get("reference_id", String.class),
                row.get("name", String.class), Boolean.TRUE.equals(row.get("is_primary", Boolean.class)),
                row.get("nlu_language", String.class), row.get("fallback_locale_reference", String.class),
                row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class)).toWire();
    }
}
