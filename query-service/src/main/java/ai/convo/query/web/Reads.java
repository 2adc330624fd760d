package ai.convo.query.web;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.query.consistency.ReadYourWrites;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.list.KeysetLists;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.Map;
import java.util.function.Function;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The two shapes of every read: one record of the caller's organisation by id, and a list page under a
 * parent the caller can see. Both negotiate first, validate, and answer 404 for anything of another organisation
 * exactly as for something missing. Waiting for the caller's own writes came before, in ReadYourWritesFilter.
 */
@Component
public class Reads {

    /** A row of {@code table} with this id and organisation; {@code what} names it in a 404 ("Locale"). */
    public record One(String table, String what, String root, Function<Readable, Map<String, Object>> mapper) {
    }

    private final DatabaseClient db;
    private final KeysetLists lists;
    private final ReadYourWrites consistency;

    public Reads(@ReadModel DatabaseClient db, KeysetLists lists, ReadYourWrites consistency) {
        this.db = db;
        this.lists = lists;
        this.consistency = consistency;
    }

    public Mono<ResponseEntity<byte[]>> one(ServerWebExchange exchange, ApiMedia defaultMedia, One one, String idName,
                                            String id, String organisationId) {
        ApiMedia media = Negotiation.negotiate(exchange, defaultMedia);
        QueryParams.pathId(idName, id);
        AsOf asOf = AsOf.parse(exchange);
        return row(exchange, one.table(), id, organisationId, Map.of(), one.mapper())
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound(one.what() + " " + id + " does not exist"
                        + (asOf == null ? "." : " at " + asOf.describe() + "."))))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single(one.root(), record)));
    }

    /**
     * The row of {@code table} with this id in the organisation (and, where given, under these parent columns),
     * mapped; with {@code asOf} (a position of the organisation's event log, or an ISO-8601 time) the row as it
     * was then, from row_history, in exactly the shape of a read at that moment. Empty: no such row (then).
     */
    public <T> Mono<T> row(ServerWebExchange exchange, String table, String id, String organisationId,
                           Map<String, String> parents, Function<Readable, T> mapper) {
        AsOf asOf = AsOf.parse(exchange);
        if (asOf == null) {
            StringBuilder sql = new StringBuilder("SELECT * FROM " + table + " WHERE id = :id AND organisation_id = :org");
            parents.keySet().forEach(column -> sql.append(" AND ").append(column).append(" = :").append(column));
            return bindAll(db.sql(sql.toString()).bind("id", id).bind("org", organisationId), parents)
                    .map(mapper::apply).one();
        }
        // The newest version written by an event at or before the moment; a NULL version: deleted by then.
        StringBuilder sql = new StringBuilder("SELECT (jsonb_populate_record(NULL::" + table + ", v.row_data)).* FROM ("
                + "SELECT h.row_data FROM row_history h JOIN event_log l ON l.global_index = h.global_index "
                + "WHERE h.table_name = :table AND h.row_id = :id AND l.organisation_id = :org AND "
                + (asOf.position() != null ? "l.position <= :at" : "l.occurred_at <= :at")
                + " ORDER BY l.position DESC LIMIT 1) v WHERE v.row_data IS NOT NULL "
                + "AND v.row_data ->> 'organisation_id' = :org");
        parents.keySet().forEach(column -> sql.append(" AND v.row_data ->> '").append(column).append("' = :")
                .append(column));
        DatabaseClient.GenericExecuteSpec query = bindAll(db.sql(sql.toString()).bind("table", table).bind("id", id)
                .bind("org", organisationId).bind("at", asOf.position() != null ? asOf.position() : asOf.timeMillis()),
                parents);
        return reached(asOf, organisationId).then(Mono.defer(() -> query.map(mapper::apply).one()));
    }

    private static DatabaseClient.GenericExecuteSpec bindAll(DatabaseClient.GenericExecuteSpec spec,
                                                             Map<String, String> binds) {
        for (Map.Entry<String, String> bind : binds.entrySet()) {
            spec = spec.bind(bind.getKey(), bind.getValue());
        }
        return spec;
    }

    /** Waits until every projection has written what the events up to that moment wrote. */
    private Mono<Void> reached(AsOf asOf, String organisationId) {
        String sql = asOf.position() != null
                ? "SELECT global_index AS g FROM event_log WHERE organisation_id = :org AND position = "
                  + "(SELECT max(position) FROM event_log WHERE organisation_id = :org AND position <= :at)"
                : "SELECT max(global_index) AS g FROM event_log WHERE organisation_id = :org AND occurred_at <= :at";
        return db.sql(sql).bind("org", organisationId)
                .bind("at", asOf.position() != null ? asOf.position() : asOf.timeMillis())
                .map(row -> java.util.Optional.ofNullable(row.get("g", Long.class))).one()
                .flatMap(global -> global.map(consistency::awaitPosition).orElse(Mono.empty()));
    }

    /**
     * A page of {@code list} within {@code scope}, under {@code parent} (null: none), which must be visible to the
     * caller or the answer is a 404 naming it. The one shape of every list route: one statement per page.
     */
    public Mono<ResponseEntity<byte[]>> page(ServerWebExchange exchange, ApiMedia media, ListDefinition list,
                                             ListRequest request, Scope scope, Parent parent,
                                             Function<Readable, Map<String, Object>> mapper) {
        return lists.page(list, scope, request, parent, mapper).map(page -> ListResponses.page(exchange, media, page));
    }
}
