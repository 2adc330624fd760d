package ai.convo.query.knowledge;

import ai.convo.contract.knowledge.KnowledgeChunkRecord;
import ai.convo.http.list.ListRequest;
import ai.convo.http.list.SortKey;
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

/**
 * The official client's indexKnowledgeChunks (the chunks of one source, in their order by default, with the full list
 * mechanics) and readKnowledgeChunk (with {@code asOf}). A chunk answers only under its own store and source.
 */
@RestController
public class KnowledgeChunkQueryController {

    static final ListDefinition CHUNKS = new ListDefinition("knowledgechunks", "knowledge_chunk_view", Map.of(
            "order", Column.number("chunk_order"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "text");

    private static final List<SortKey> IN_ORDER = List.of(new SortKey("order", true));

    private final Reads reads;

    public KnowledgeChunkQueryController(Reads reads) {
        this.reads = reads;
    }

    @ListOf("CHUNKS")
    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks")
    public Mono<ResponseEntity<byte[]>> chunks(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId, @PathVariable String sourceId) {
        // the client's whitespace before the query string was dropped by the firewall (WhitespaceQuery)
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("knowledgeStoreId", knowledgeStoreId);
        QueryParams.pathId("sourceId", sourceId);
        ListRequest request = ListRequest.parse(exchange, CHUNKS.sortableFields());
        if (request.sort().isEmpty() && !request.hasCursor()) {
            request = new ListRequest(request.limit(), request.skip(), request.filter(), IN_ORDER, null, null);
        }
        String org = caller.organisationId();
        Scope scope = new Scope("organisation_id = :org AND source_id = :source AND store_id = :store",
                Map.of("org", org, "source", sourceId, "store", knowledgeStoreId),
                "knowledgechunks|" + org + "|" + knowledgeStoreId + "|" + sourceId);
        Parent source = new Parent("SELECT 1 FROM knowledge_source_view WHERE id = :parent_id "
                + "AND organisation_id = :parent_org AND store_id = :parent_store",
                Map.of("parent_id", sourceId, "parent_org", org, "parent_store", knowledgeStoreId),
                "Knowledge source " + sourceId + " in knowledge store " + knowledgeStoreId);
        return reads.page(exchange, media, CHUNKS, request, scope, source, KnowledgeChunkQueryController::chunk);
    }

    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}/sources/{sourceId}/chunks/{chunkId}")
    public Mono<ResponseEntity<byte[]>> chunk(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                              @PathVariable String knowledgeStoreId, @PathVariable String sourceId,
                                              @PathVariable String chunkId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("knowledgeStoreId", knowledgeStoreId);
        QueryParams.pathId("sourceId", sourceId);
        QueryParams.pathId("chunkId", chunkId);
        return reads.row(exchange, "knowledge_chunk_view", chunkId, caller.organisationId(),
                        Map.of("store_id", knowledgeStoreId, "source_id", sourceId), KnowledgeChunkQueryController::chunk)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Knowledge chunk " + chunkId
                        + " does not exist in knowledge source " + sourceId + " of knowledge store " + knowledgeStoreId
                        + ".")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single("knowledgeChunk", record)));
    }

    static Map<String, Object> chunk(Readable row) {
        Integer order = row.get("chunk_order", Integer.class);
        return new KnowledgeChunkRecord(row.get("id", String.class), row.get("reference_id", String.class),
                order == null ? 0 : order, row.get("text", String.class),
                Boolean.TRUE.equals(row.get("disabled", Boolean.class)),
                Renderer.JSON.readValue(row.get("data", String.class), new TypeReference<LinkedHashMap<String, Object>>() { }),
                row.get("store_id", String.class), row.get("source_id", String.class), row.get("project_id", String.class),
                row.get("organisation_id", String.class), row.get("created_at", Long.class),
                row.get("last_changed", Long.class), row.get("created_by", String.class),
                row.get("last_changed_by", String.class)).toWire();
    }
}
