package ai.convo.query.knowledge;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.QueryParams;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Search within a store, beyond the official client: {@code GET .../knowledgestores/{id}/search?query=...&limit=10}
 * answers the best chunks of its {@code ready} sources (disabled chunks left out) by BM25 with the store's language
 * analyser, each with its score and the query terms it matched. Vector similarity is not part of it (no embedding
 * model ships here yet): {@code method} says {@code bm25}.
 */
@RestController
public class KnowledgeSearchController {

    static final int MAX_QUERY_LENGTH = 1_000;
    static final int MAX_LIMIT = 50;

    private final DatabaseClient db;

    public KnowledgeSearchController(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}/search")
    public Mono<ResponseEntity<byte[]>> search(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("knowledgeStoreId", knowledgeStoreId);
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        String query = params.getFirst("query");
        if (query == null || query.isBlank() || query.length() > MAX_QUERY_LENGTH) {
            throw ApiProblem.invalidParameter("query", "query is required: the words to search for, 1 to "
                    + MAX_QUERY_LENGTH + " characters" + (query == null ? "." : "; got " + query.length() + "."));
        }
        int limit = limit(params.getFirst("limit"));
        String org = caller.organisationId();
        return db.sql("SELECT language FROM knowledge_store_view WHERE id = :id AND organisation_id = :org")
                .bind("id", knowledgeStoreId).bind("org", org).map(row -> row.get("language", String.class)).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Knowledge store " + knowledgeStoreId
                        + " does not exist.")))
                .flatMap(language -> db.sql("SELECT c.* FROM knowledge_chunk_view c JOIN knowledge_source_view s "
                                + "ON s.id = c.source_id AND s.organisation_id = c.organisation_id "
                                + "WHERE c.organisation_id = :org AND c.store_id = :store AND s.status = 'ready' "
                                + "AND NOT c.disabled")
                        .bind("org", org).bind("store", knowledgeStoreId)
                        .map(KnowledgeChunkQueryController::chunk).all().collectList()
                        .publishOn(Schedulers.boundedElastic())
                        .map(rows -> answer(language, rows, query, limit)))
                .map(body -> ApiResponses.ok(exchange, media, new Representation.Single("knowledgeSearch", body)));
    }

    private static Map<String, Object> answer(String language, List<Map<String, Object>> rows, String query,
                                              int limit) {
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        rows.forEach(row -> byId.put((String) row.get("_id"), row));
        ChunkSearch.Result result = ChunkSearch.search(language, rows.stream()
                .map(row -> new ChunkSearch.Chunk((String) row.get("_id"), (String) row.get("text"))).toList(),
                query, limit);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", query);
        body.put("method", "bm25");
        body.put("language", language);
        body.put("analyser", result.analyser());
        body.put("queryTerms", result.queryTerms());
        body.put("searched", rows.size());
        body.put("items", result.hits().stream().map(hit -> ChunkSearch.wire(hit, byId.get(hit.id()))).toList());
        return body;
    }

    private static int limit(String value) {
        if (value == null || value.isEmpty()) {
            return 10;
        }
        try {
            int limit = Integer.parseInt(value.strip());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException notANumber) {
            // answered below
        }
        throw ApiProblem.invalidParameter("limit", "limit must be a whole number from 1 to " + MAX_LIMIT + "; got '"
                + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "'.");
    }
}
