package ai.convo.query.knowledge;

import ai.convo.contract.knowledge.KnowledgeSourceRecord;
import ai.convo.contract.knowledge.KnowledgeStoreRecord;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
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
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;

/** Reads of knowledge stores and their sources: the two lists (full list mechanics) and each record by id. */
@RestController
class KnowledgeQueryController {

    static final ListDefinition STORES = new ListDefinition("knowledgestores", "knowledge_store_view", Map.of(
            "name", Column.text("lower(name)"),
            "language", Column.text("language"),
            "referenceId", Column.text("reference_id"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    static final ListDefinition SOURCES = new ListDefinition("knowledgesources", "knowledge_source_view", Map.of(
            "name", Column.text("lower(name)"),
            "type", Column.text("source_type"),
            "status", Column.text("status"),
            "chunkCount", Column.number("chunk_count"),
            "referenceId", Column.text("reference_id"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    static final Reads.One STORE = new Reads.One("knowledge_store_view", "Knowledge store", "knowledgeStore",
            KnowledgeQueryController::store);

    private final Reads reads;

    public KnowledgeQueryController(Reads reads) {
        this.reads = reads;
    }

    /** The stores of one project ({@code projectId}), or of the whole organisation without it. */
    @ListOf("STORES")
    @GetMapping("/v2.0/knowledgestores")
    public Mono<ResponseEntity<byte[]>> stores(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, STORES.sortableFields());
        String projectId = QueryParams.optionalId(exchange, "projectId");
        String org = caller.organisationId();
        Scope scope = Scope.projects("knowledgestores", org, caller.isOrganisationAdmin() ? null : caller.userId(), projectId);
        return reads.page(exchange, media, STORES, request, scope, Parent.row("project_view", projectId, org, "Project " + projectId), KnowledgeQueryController::store);
    }

    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}")
    public Mono<ResponseEntity<byte[]>> store(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @PathVariable String knowledgeStoreId) {
        return reads.one(exchange, ApiMedia.JSON, STORE, "knowledgeStoreId", knowledgeStoreId, caller.organisationId());
    }

    @ListOf("SOURCES")
    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources")
    public Mono<ResponseEntity<byte[]>> sources(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @PathVariable String knowledgeStoreId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("knowledgeStoreId", knowledgeStoreId);
        ListRequest request = ListRequest.parse(exchange, SOURCES.sortableFields());
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND store_id = :store", Map.of("org", org, "store", knowledgeStoreId),
                "knowledgesources|" + org + "|" + knowledgeStoreId);
        return reads.page(exchange, media, SOURCES, request, scope,
                Parent.row("knowledge_store_view", knowledgeStoreId, org, "Knowledge store " + knowledgeStoreId),
                KnowledgeQueryController::source);
    }

    /** A source only under its own store: the same id under another store is a 404. */
    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}")
    public Mono<ResponseEntity<byte[]>> source(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId, @PathVariable String sourceId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("knowledgeStoreId", knowledgeStoreId);
        QueryParams.pathId("sourceId", sourceId);
        return reads.row(exchange, "knowledge_source_view", sourceId, caller.organisationId(),
                        Map.of("store_id", knowledgeStoreId), KnowledgeQueryController::source)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Knowledge source " + sourceId
                        + " does not exist in knowledge store " + knowledgeStoreId + ".")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("knowledgeSource", record)));
    }

    static Map<String, Object> store(Readable row) {
        return new KnowledgeStoreRecord(row.get("id", String.class), row.get("reference_id", String.class),
                row.get("name", String.class), row.get("description", String.class), row.get("language", String.class),
                row.get("project_id", String.class), row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class)).toWire();
    }

    static Map<String, Object> source(Readable row) {
        Long chunks = row.get("chunk_count", Long.class);
        return new KnowledgeSourceRecord(row.get("id", String.class), row.get("reference_id", String.class),
                row.get("name", String.class), row.get("description", String.class),
                row.get("source_type", String.class), row.get("status", String.class),
                chunks == null ? 0 : chunks.intValue(),
                Renderer.JSON.readValue(row.get("tags", String.class), new TypeReference<List<String>>() { }),
                Renderer.JSON.readValue(row.get("data", String.class), new TypeReference<LinkedHashMap<String, Object>>() { }),
                row.get("store_id", String.class), row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class),
                row.get("fail_reason", String.class)).toWire();
    }
}
