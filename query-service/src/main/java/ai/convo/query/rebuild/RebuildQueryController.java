package ai.convo.query.rebuild;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Renderer;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * What an operator sees of the projections (system administrators only): each projection with its tables and live
 * positions, the digest of its live tables, and the rebuilds with their progress, digests and pauses. Read from the
 * primary: this is about the tables the processors write, not a replica's copy.
 */
@RestController
class RebuildQueryController {

    private final JdbcTemplate jdbc;

    RebuildQueryController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @GetMapping("/management/v2.0/projections")
    Mono<ResponseEntity<byte[]>> projections(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = negotiate(exchange, caller);
        return blocking(() -> {
            // Every processor's segments in one query, then grouped by projection.
            Map<String, List<Map<String, Object>>> segments = new LinkedHashMap<>();
            ReadModelTables.PROJECTIONS.keySet().forEach(name -> segments.put(name, new ArrayList<>()));
            jdbc.query("SELECT processor_name, segment, token, owner FROM token_entry WHERE processor_name = ANY (?) "
                    + "ORDER BY processor_name, segment", rs -> {
                        TokenSet.Position position = TokenSet.stored(rs.getBytes(3));
                        Map<String, Object> segment = new LinkedHashMap<>();
                        segment.put("segment", rs.getInt(2));
                        segment.put("position", position.index());
                        segment.put("gaps", position.gaps().size());
                        segment.put("owner", rs.getString(4));
                        segments.get(rs.getString(1)).add(segment);
                    }, (Object) segments.keySet().toArray(String[]::new));
            List<Map<String, Object>> projections = new ArrayList<>();
            ReadModelTables.PROJECTIONS.forEach((name, projection) -> {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("name", name);
                entry.put("tables", projection.switched());
                entry.put("segments", segments.get(name));
                projections.add(entry);
            });
            List<Map<String, Object>> rebuilds = jdbc.query("SELECT * FROM projection_rebuild ORDER BY requested_at "
                    + "DESC LIMIT 20", (rs, i) -> rebuild(rs));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("projections", projections);
            body.put("rebuilds", rebuilds);
            return ApiResponses.ok(exchange, media, new Representation.Single("projections", body));
        });
    }

    /** The digest of the live tables of one projection ({@code projection}), or of all of them. */
    @GetMapping("/management/v2.0/projections/digest")
    Mono<ResponseEntity<byte[]>> digest(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = negotiate(exchange, caller);
        String named = exchange.getRequest().getQueryParams().getFirst("projection");
        List<String> names = named == null || named.equals("all") ? List.copyOf(ReadModelTables.PROJECTIONS.keySet())
                : List.of(named);
        if (!ReadModelTables.PROJECTIONS.keySet().containsAll(names)) {
            throw ApiProblem.invalidParameter("projection", "projection must be 'all' or one of "
                    + String.join(", ", ReadModelTables.PROJECTIONS.keySet()) + ".");
        }
        return blocking(() -> {
            Map<String, Object> tables = new LinkedHashMap<>();
            for (String name : names) {
                for (String table : ReadModelTables.named(name).switched()) {
                    TableDigest digest = TableDigest.of(jdbc, "public", table);
                    tables.put(table, Map.of("rows", digest.rows(), "sum", digest.sum()));
                }
            }
            return ApiResponses.ok(exchange, media, new Representation.Single("digest", Map.of("tables", tables)));
        });
    }

    @GetMapping("/management/v2.0/projections/rebuilds/{rebuildId}")
    Mono<ResponseEntity<byte[]>> rebuild(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                         @PathVariable String rebuildId) {
        ApiMedia media = negotiate(exchange, caller);
        QueryParams.pathId("rebuildId", rebuildId);
        return blocking(() -> {
            List<Map<String, Object>> found = jdbc.query("SELECT * FROM projection_rebuild WHERE id = ?",
                    (rs, i) -> rebuild(rs), rebuildId);
            if (found.isEmpty()) {
                throw ApiProblem.notFound("Rebuild " + rebuildId + " does not exist.");
            }
            return ApiResponses.ok(exchange, media, new Representation.Single("rebuild", found.get(0)));
        });
    }

    private static ApiMedia negotiate(ServerWebExchange exchange, ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        if (!caller.isSystemAdmin()) {
            throw ApiProblem.forbidden("Only a system administrator can see and rebuild projections.");
        }
        return media;
    }

    private static Map<String, Object> rebuild(java.sql.ResultSet rs) throws java.sql.SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("_id", rs.getString("id"));
        row.put("projections", List.of((String[]) rs.getArray("projections").getArray()));
        row.put("requireIdentical", rs.getBoolean("require_identical"));
        row.put("status", rs.getString("status"));
        row.put("cancelRequested", rs.getBoolean("cancel_requested"));
        row.put("passes", rs.getInt("passes"));
        row.put("eventsDone", rs.getLong("events_done"));
        row.put("eventsTotal", rs.getLong("events_total"));
        String digests = rs.getString("digests");
        row.put("digests", digests == null ? null : Renderer.JSON.readValue(digests, Map.class));
        row.put("identical", rs.getObject("identical"));
        row.put("writePauseMs", rs.getObject("write_pause_ms"));
        row.put("readPauseMs", rs.getObject("read_pause_ms"));
        row.put("failReason", rs.getString("fail_reason"));
        row.put("requestedBy", rs.getString("requested_by"));
        row.put("requestedAt", instant(rs.getTimestamp("requested_at")));
        row.put("startedAt", instant(rs.getTimestamp("started_at")));
        row.put("finishedAt", instant(rs.getTimestamp("finished_at")));
        return row;
    }

    private static String instant(java.sql.Timestamp at) {
        return at == null ? null : at.toInstant().toString();
    }

    private static Mono<ResponseEntity<byte[]>> blocking(java.util.concurrent.Callable<ResponseEntity<byte[]>> read) {
        return Mono.fromCallable(read).subscribeOn(Schedulers.boundedElastic());
    }
}
