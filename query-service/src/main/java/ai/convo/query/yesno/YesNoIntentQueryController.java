package ai.convo.query.yesno;

import ai.convo.contract.yesno.YesNoIntentRecord;
import ai.convo.contract.yesno.YesNoKind;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.AsOf;
import ai.convo.query.web.QueryParams;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's readYesNoIntents ({@code {yesIntent, noIntent, rejectIntent}}, each {@code {_id, name, rules,
 * isDisabled}}) and a yes/no intent's sentences, with the list mechanics. Every live locale has its three intents
 * (see {@link YesNoIntentProjection}), so a locale without them is not the caller's or does not exist.
 */
@RestController
class YesNoIntentQueryController {

    static final ListDefinition SENTENCES = new ListDefinition("yesNoSentences", "yes_no_sentence", Map.of(
            "_id", Column.text("id"),
            "text", Column.text("lower(left(text, 200))"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed")), "text");

    private final DatabaseClient db;
    private final Reads reads;

    YesNoIntentQueryController(@ReadModel DatabaseClient db, Reads reads) {
        this.db = db;
        this.reads = reads;
    }

    @GetMapping("/v2.0/locales/{localeId}/yesnointents")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String localeId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("localeId", localeId);
        AsOf.refuse(exchange, "yes/no intents keep no history here; their events are in the event log "
                + "(resourceType=yesNoIntent).");
        return db.sql("SELECT id, kind, rules::text AS rules, is_disabled FROM yes_no_intent_view "
                        + "WHERE locale_id = :locale AND organisation_id = :org")
                .bind("locale", localeId).bind("org", caller.organisationId())
                .map(YesNoIntentQueryController::record).all().collectList()
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return Mono.error(ApiProblem.notFound("Locale " + localeId + " does not exist."));
                    }
                    Map<String, Object> body = new LinkedHashMap<>();
                    for (YesNoKind kind : YesNoKind.values()) {
                        found.stream().filter(r -> r.kind() == kind).findFirst()
                                .ifPresent(r -> body.put(r.wireKey(), r.toWire()));
                    }
                    return Mono.just(ApiResponses.ok(exchange, media, new Representation.Single("yesNoIntents", body)));
                });
    }

    @ListOf("SENTENCES")
    @GetMapping("/v2.0/locales/{localeId}/yesnointents/{yesNoIntentId}/sentences")
    public Mono<ResponseEntity<byte[]>> sentences(ServerWebExchange exchange,
                                                  @AuthenticationPrincipal ApiPrincipal caller,
                                                  @PathVariable String localeId, @PathVariable String yesNoIntentId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("localeId", localeId);
        QueryParams.pathId("yesNoIntentId", yesNoIntentId);
        ListRequest request = ListRequest.parse(exchange, SENTENCES.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND yes_no_intent_id = :intent",
                Map.of("org", org, "intent", yesNoIntentId), "yesNoSentences|" + org + "|" + yesNoIntentId);
        Parent intent = new Parent("SELECT 1 FROM yes_no_intent_view WHERE id = :parent_id AND locale_id = "
                + ":parent_locale AND organisation_id = :parent_org", Map.of("parent_id", yesNoIntentId,
                "parent_locale", localeId, "parent_org", org),
                "Yes/no intent " + yesNoIntentId + " of locale " + localeId);
        return reads.page(exchange, media, SENTENCES, request, scope, intent, YesNoIntentQueryController::sentence);
    }

    @SuppressWarnings("unchecked")
    private static YesNoIntentRecord record(Readable row) {
        return new YesNoIntentRecord(row.get("id", String.class),
                YesNoKind.parse(row.get("kind", String.class)).orElseThrow(),
                Renderer.JSON.readValue(row.get("rules", String.class), List.class),
                Boolean.TRUE.equals(row.get("is_disabled", Boolean.class)));
    }

    private static Map<String, Object> sentence(Readable row) {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put("_id", row.get("id", String.class));
        wire.put("text", row.get("text", String.class));
        wire.put("createdAt", row.get("created_at", Long.class));
        wire.put("lastChanged", row.get("last_changed", Long.class));
        return wire;
    }
}
