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
import java.util.Comparator;
import java.util.HashMap;
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
 * answers the best chunks of its {@code ready} sources (disabled chunks left out), each with its score and why it
 * matched. English stores ({@code method: hybrid}): BM25 with the store's language analyser fused by reciprocal rank
 * with the cosine similarity of the chunks' embeddings ({@link ChunkEmbeddings}; {@code embedded} says how many of the
 * searched chunks have theirs yet). Other languages ({@code method: bm25}): BM25 alone, as the model is English. The
 * index is kept per store while its chunks and their embeddings are unchanged ({@link StoreIndexes}); each search
 * reads their fingerprint first. The query is embedded off the event loop. {@code GET .../knowledgestores/search
 * ?projectId=...} searches all of a project's stores the same way.
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
        String query = query(params.getFirst("query"));
        int limit = limit(params.getFirst("limit"));
        String org = caller.organisationId();
        return db.sql("SELECT language FROM knowledge_store_view WHERE id = :id AND organisation_id = :org")
                .bind("id", knowledgeStoreId).bind("org", org).map(row -> row.get("language", String.class)).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Knowledge store " + knowledgeStoreId
                        + " does not exist.")))
                .flatMap(language -> searched(new Scope(org, "store_id", knowledgeStoreId, language), query, limit))
                .flatMap(found -> hits(org, found.result().hits()).map(rows -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("query", query);
                    body.putAll(describe(found));
                    body.put("items", items(List.of(found), found.result().hits(), rows));
                    return body;
                }))
                .map(body -> ApiResponses.ok(exchange, media, new Representation.Single("knowledgeSearch", body)));
    }

    /**
     * Search over every store of a project ({@code ?projectId=}): one index per language of its stores (their chunks
     * analysed alike), each searched as a store is; the groups' hits merged by their fused score.
     */
    @GetMapping("/v2.0/knowledgestores/search")
    public Mono<ResponseEntity<byte[]>> searchProject(ServerWebExchange exchange,
                                                      @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        AsOf.refuse(exchange, "a search reads the stores as they stand; each chunk's read takes asOf");
        String projectId = QueryParams.optionalId(exchange, "projectId");
        if (projectId == null) {
            throw ApiProblem.invalidParameter("projectId", "projectId is required: the project whose knowledge stores "
                    + "to search (a single store: /v2.0/knowledgestores/{knowledgeStoreId}/search).");
        }
        MultiValueMap<String, String> params = exchange.getRequest().getQueryParams();
        String query = query(params.getFirst("query"));
        int limit = limit(params.getFirst("limit"));
        String org = caller.organisationId();
        return db.sql("SELECT id FROM project_view WHERE id = :project AND organisation_id = :org")
                .bind("project", projectId).bind("org", org).map(row -> row.get("id", String.class)).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("Project " + projectId + " does not exist.")))
                .thenMany(db.sql("SELECT DISTINCT language FROM knowledge_store_view WHERE project_id = :project "
                                + "AND organisation_id = :org ORDER BY language").bind("project", projectId)
                        .bind("org", org).map(row -> row.get("language", String.class)).all())
                .concatMap(language -> searched(new Scope(org, "project_id", projectId, language), query, limit))
                .collectList()
                .flatMap(groups -> {
                    // equal fused scores: the nearer in meaning first, as within one index
                    List<ChunkSearch.Hit> merged = groups.stream().flatMap(g -> g.result().hits().stream())
                            .sorted(Comparator.comparingDouble((ChunkSearch.Hit h) -> -h.score())
                                    .thenComparingDouble(h -> h.similarity() == null ? 1 : -h.similarity()))
                            .limit(limit).toList();
                    return hits(org, merged).map(rows -> {
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put("query", query);
                        body.put("projectId", projectId);
                        body.put("groups", groups.stream().map(KnowledgeSearchController::describe).toList());
                        body.put("searched", groups.stream().mapToInt(g -> g.index().size()).sum());
                        body.put("items", items(groups, merged, rows));
                        return body;
                    });
                })
                .map(body -> ApiResponses.ok(exchange, media, new Representation.Single("knowledgeSearch", body)));
    }

    /** What one index covers: a store (store_id), or a project's stores of one language (project_id). */
    private record Scope(String org, String column, String id, String language) {
        String key() {
            return org + "|" + column + "|" + id + "|" + language;
        }
    }

    private record Found(Scope scope, ChunkSearch.Index index, ChunkSearch.Result result) {
    }

    private Mono<Found> searched(Scope scope, String query, int limit) {
        return fingerprint(scope).flatMap(fingerprint -> index(scope, fingerprint))
                .flatMap(index -> searched(index, scope.language(), query, limit)
                        .map(result -> new Found(scope, index, result)));
    }

    /** BM25 alone, or fused with the vectors where the store has any (the query embedded on a worker thread). */
    private Mono<ChunkSearch.Result> searched(ChunkSearch.Index index, String language, String query, int limit) {
        if (!ChunkEmbedder.embeds(language) || index.embedded() == 0) {
            return Mono.fromSupplier(() -> index.search(query, limit));
        }
        // a model that cannot be loaded here leaves the search to BM25 rather than failing it
        return Mono.fromCallable(() -> index.search(query, embedder.embed(query), limit))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(ChunkEmbedder.Unavailable.class, unavailable -> Mono.fromSupplier(
                        () -> index.search(query, limit)));
    }

    /** The searched chunks of a scope; the column is one of two constants, never a caller's text. */
    private static String searchedIn(Scope scope) {
        return "FROM knowledge_chunk_view c JOIN knowledge_source_view s "
                + "ON s.id = c.source_id AND s.organisation_id = c.organisation_id "
                + "JOIN knowledge_store_view st ON st.id = c.store_id AND st.organisation_id = c.organisation_id "
                + "LEFT JOIN knowledge_chunk_embedding e ON e.chunk_id = c.id "
                + "AND e.chunk_version = c.xmin::text::bigint AND e.model = '" + ChunkEmbedder.MODEL + "' "
                + "WHERE c.organisation_id = :org AND c." + (scope.column().equals("store_id") ? "store_id" : "project_id")
                + " = :scope AND st.language = :language AND s.status = 'ready' AND NOT c.disabled";
    }

    /**
     * What the searched chunks are now, without reading their text: their number, a sum over their ids and the
     * row versions (xmin, new on every insert and update) of each chunk and its source, with the language, and how
     * many have a current embedding (one arriving builds the index again).
     */
    private Mono<String> fingerprint(Scope scope) {
        return db.sql("SELECT count(*) AS n, coalesce(sum(hashtext(c.id)::bigint + c.xmin::text::bigint "
                        + "+ s.xmin::text::bigint), 0) AS h, count(e.chunk_id) AS v " + searchedIn(scope))
                .bind("org", scope.org()).bind("scope", scope.id()).bind("language", scope.language())
                .map(row -> scope.language() + "|" + row.get("n", Long.class) + "|" + row.get("h", Number.class) + "|"
                        + row.get("v", Long.class)).one();
    }

    private Mono<ChunkSearch.Index> index(Scope scope, String fingerprint) {
        ChunkSearch.Index kept = indexes.find(scope.key(), fingerprint);
        if (kept != null) {
            return Mono.just(kept);
        }
        return db.sql("SELECT c.id, c.text, e.vector " + searchedIn(scope)).bind("org", scope.org())
                .bind("scope", scope.id()).bind("language", scope.language())
                .map(row -> {
                    ByteBuffer vector = row.get("vector", ByteBuffer.class);
                    return new ChunkSearch.Chunk(row.get("id", String.class), row.get("text", String.class),
                            vector == null ? null : ChunkEmbeddings.vector(vector));
                })
                .all().collectList()
                .publishOn(Schedulers.boundedElastic())
                .map(chunks -> {
                    ChunkSearch.Index built = ChunkSearch.build(scope.language(), chunks);
                    indexes.keep(scope.key(), fingerprint, built);
                    return built;
                });
    }

    /** The hits' rows, by id (the organisation's only). */
    private Mono<Map<String, Map<String, Object>>> hits(String org, List<ChunkSearch.Hit> hits) {
        if (hits.isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql("SELECT * FROM knowledge_chunk_view WHERE organisation_id = :org AND id IN (:ids)")
                .bind("org", org).bind("ids", hits.stream().map(ChunkSearch.Hit::id).toList())
                .map(KnowledgeChunkQueryController::chunk).all()
                .collectMap(row -> (String) row.get("_id"), row -> row);
    }

    /** How one index was searched: the method, language, analyser, query terms and counts. */
    private static Map<String, Object> describe(Found found) {
        String language = found.scope().language();
        boolean hybrid = ChunkEmbedder.embeds(language);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("method", hybrid ? "hybrid" : "bm25");
        body.put("language", language);
        body.put("analyser", found.result().analyser());
        body.put("queryTerms", found.result().queryTerms());
        body.put("searched", found.index().size());
        body.put("embedded", found.index().embedded());
        body.put("model", hybrid ? ChunkEmbedder.MODEL : null);
        body.put("note", hybrid ? "BM25 fused by reciprocal rank with the cosine similarity of the embedded chunks"
                : "BM25 only: the embedding model (" + ChunkEmbedder.MODEL + ") is English");
        return body;
    }

    /** The hits as answered, each explained with its own index's query terms; a chunk deleted since is left out. */
    private static List<Map<String, Object>> items(List<Found> groups, List<ChunkSearch.Hit> hits,
                                                   Map<String, Map<String, Object>> rows) {
        Map<String, Found> groupOf = new HashMap<>();
        for (Found group : groups) {
            group.result().hits().forEach(hit -> groupOf.put(hit.id(), group));
        }
        return hits.stream().filter(hit -> rows.containsKey(hit.id())).map(hit -> {
            Found group = groupOf.get(hit.id());
            return ChunkSearch.wire(hit, ChunkSearch.matched(group.scope().language(), group.result().queryTerms(),
                    (String) rows.get(hit.id()).get("text")), rows.get(hit.id()));
        }).toList();
    }

    private static String query(String query) {
        if (query == null || query.isBlank() || query.length() > MAX_QUERY_LENGTH) {
            throw ApiProblem.invalidParameter("query", "query is required: the words to search for, 1 to "
                    + MAX_QUERY_LENGTH + " characters" + (query == null ? "." : "; got " + query.length() + "."));
        }
        return query;
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
