package ai.convo.query.knowledge;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.AsOf;
import ai.convo.query.web.QueryParams;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
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
 * answers the best chunks of its {@code ready} sources (disabled chunks left out), each with its score and why it
 * matched. English stores ({@code method: hybrid}): BM25 with the store's language analyser fused by reciprocal rank
 * with the cosine similarity of the chunks' embeddings ({@link ChunkEmbeddings}; {@code embedded} says how many of the
 * searched chunks have theirs yet). Other languages ({@code method: bm25}): BM25 alone, as the model is English. The
 * index is kept per store while its chunks and their embeddings are unchanged ({@link StoreIndexes}); each search
 * reads their fingerprint first. The query is embedded off the event loop.
 */
@RestController
public class KnowledgeSearchController {

    static final int MAX_QUERY_LENGTH = 1_000;
    static final int MAX_LIMIT = 50;

    private final DatabaseClient db;
    private final StoreIndexes indexes;
    private final ChunkEmbedder embedder;

    KnowledgeSearchController(@ReadModel DatabaseClient db, StoreIndexes indexes, ChunkEmbedder embedder) {
        this.db = db;
        this.indexes = indexes;
        this.embedder = embedder;
    }

    @GetMapping("/v2.0/knowledgestores/{knowledgeStoreId}/search")
    public Mono<ResponseEntity<byte[]>> search(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String knowledgeStoreId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        QueryParams.pathId("knowledgeStoreId", knowledgeStoreId);
        AsOf.refuse(exchange, "a search reads the store as it stands; each chunk's read takes asOf");
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        String query = params.getFirst("query");
        if (query == null || query.isBlank() || query.length() > MAX_QUERY_LENGTH) {
            throw ApiProblem.invalidParameter("query", "query is required: the words to search for, 1 to "
                    + MAX_QUERY_LENGTH + " characters" + (query == null ? "." : "; got " + query.length() + "."));
        }
        int limit = limit(params.getFirst("limit"));
        String org = caller.organisationId();
        String key = org + "|" + knowledgeStoreId;
        return db.sql("SELECT language FROM knowledge_store_view WHERE id = :id AND organisation_id = :org")
                .bind("id", knowledgeStoreId).bind("org", org).map(row -> row.get("language", String.class)).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Knowledge store " + knowledgeStoreId
                        + " does not exist.")))
                .flatMap(language -> fingerprint(org, knowledgeStoreId, language)
                        .flatMap(fingerprint -> index(key, fingerprint, org, knowledgeStoreId, language))
                        .flatMap(index -> searched(index, language, query, limit)
                                .flatMap(result -> hits(org, result).map(rows -> answer(language, index, query,
                                        result, rows)))))
                .map(body -> ApiResponses.ok(exchange, media, new Representation.Single("knowledgeSearch", body)));
    }

    /** BM25 alone, or fused with the vectors where the store has any (the query embedded on a worker thread). */
    private Mono<ChunkSearch.Result> searched(ChunkSearch.Index index, String language, String query, int limit) {
        if (!ChunkEmbedder.embeds(language) || index.embedded() == 0) {
            return Mono.fromSupplier(() -> index.search(query, limit));
        }
        return Mono.fromCallable(() -> index.search(query, embedder.embed(query), limit))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private static final String SEARCHED = "FROM knowledge_chunk_view c JOIN knowledge_source_view s "
            + "ON s.id = c.source_id AND s.organisation_id = c.organisation_id "
            + "LEFT JOIN knowledge_chunk_embedding e ON e.chunk_id = c.id AND e.chunk_version = c.xmin::text::bigint "
            + "AND e.model = '" + ChunkEmbedder.MODEL + "' "
            + "WHERE c.organisation_id = :org AND c.store_id = :store AND s.status = 'ready' AND NOT c.disabled";

    /**
     * What the searched chunks are now, without reading their text: their number, a sum over their ids and the
     * row versions (xmin, new on every insert and update) of each chunk and its source, with the language, and how
     * many have a current embedding (one arriving builds the index again).
     */
    private Mono<String> fingerprint(String org, String store, String language) {
        return db.sql("SELECT count(*) AS n, coalesce(sum(hashtext(c.id)::bigint + c.xmin::text::bigint "
                        + "+ s.xmin::text::bigint), 0) AS h, count(e.chunk_id) AS v " + SEARCHED)
                .bind("org", org).bind("store", store)
                .map(row -> language + "|" + row.get("n", Long.class) + "|" + row.get("h", Number.class) + "|"
                        + row.get("v", Long.class)).one();
    }

    private Mono<ChunkSearch.Index> index(String key, String fingerprint, String org, String store, String language) {
        ChunkSearch.Index kept = indexes.find(key, fingerprint);
        if (kept != null) {
            return Mono.just(kept);
        }
        return db.sql("SELECT c.id, c.text, e.vector " + SEARCHED).bind("org", org).bind("store", store)
                .map(row -> {
                    ByteBuffer vector = row.get("vector", ByteBuffer.class);
                    return new ChunkSearch.Chunk(row.get("id", String.class), row.get("text", String.class),
                            vector == null ? null : ChunkEmbeddings.vector(vector));
                })
                .all().collectList()
                .publishOn(Schedulers.boundedElastic())
                .map(chunks -> {
                    ChunkSearch.Index built = ChunkSearch.build(language, chunks);
                    indexes.keep(key, fingerprint, built);
                    return built;
                });
    }

    /** The hits' rows, by id (the organisation's only). */
    private Mono<Map<String, Map<String, Object>>> hits(String org, ChunkSearch.Result result) {
        if (result.hits().isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql("SELECT * FROM knowledge_chunk_view WHERE organisation_id = :org AND id IN (:ids)")
                .bind("org", org).bind("ids", result.hits().stream().map(ChunkSearch.Hit::id).toList())
                .map(KnowledgeChunkQueryController::chunk).all()
                .collectMap(row -> (String) row.get("_id"), row -> row);
    }

    private static Map<String, Object> answer(String language, ChunkSearch.Index index, String query,
                                              ChunkSearch.Result result, Map<String, Map<String, Object>> rows) {
        boolean hybrid = ChunkEmbedder.embeds(language);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", query);
        body.put("method", hybrid ? "hybrid" : "bm25");
        body.put("language", language);
        body.put("analyser", result.analyser());
        body.put("queryTerms", result.queryTerms());
        body.put("searched", index.size());
        body.put("embedded", index.embedded());
        body.put("model", hybrid ? ChunkEmbedder.MODEL : null);
        body.put("note", hybrid ? "BM25 fused by reciprocal rank with the cosine similarity of the embedded chunks"
                : "BM25 only: the embedding model (" + ChunkEmbedder.MODEL + ") is English");
        // a hit whose chunk was deleted since the index was built is left out
        body.put("items", result.hits().stream().filter(hit -> rows.containsKey(hit.id()))
                .map(hit -> ChunkSearch.wire(hit, ChunkSearch.matched(language, result.queryTerms(),
                        (String) rows.get(hit.id()).get("text")), rows.get(hit.id()))).toList());
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
