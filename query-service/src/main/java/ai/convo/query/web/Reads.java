package ai.convo.query.web;

import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.query.web.list.KeysetLists;
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

    public Reads(@ReadModel DatabaseClient db, KeysetLists lists) {
        this.db = db;
        this.lists = lists;
    }

    public Mono<ResponseEntity<byte[]>> one(ServerWebExchange exchange, ApiMedia defaultMedia, One one, String idName,
                                            String id, String organisationId) {
        ApiMedia media = Negotiation.negotiate(exchange, defaultMedia);
        QueryParams.pathId(idName, id);
        return db.sql("SELECT * FROM " + one.table() + " WHERE id = :id AND organisation_id = :org")
                .bind("id", id).bind("org", organisationId)
                .map(one.mapper()).one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound(one.what() + " " + id + " does not exist.")))
                .map(record -> ApiResponses.ok(exchange, media, new Representation.Single(one.root(), record)));
    }

    /**
     * A page of {@code list} within {@code scope}. {@code parent} says whether the parent (e.g. the project
     * named in the query) exists for this organisation; {@code parentWhat} names it in the 404.
     */
    public Mono<ResponseEntity<byte[]>> page(ServerWebExchange exchange, ApiMedia media, ListDefinition list,
                                             ListRequest request, Scope scope, Mono<Boolean> parent, String parentWhat,
                                             Function<Readable, Map<String, Object>> mapper) {
        return parent
                .flatMap(visible -> visible ? lists.page(list, scope, request, mapper)
                        : Mono.error(ApiProblem.notFound(parentWhat + " does not exist.")))
                .map(page -> ListResponses.page(exchange, media, page));
    }

    /** Whether a row with this id belongs to the organisation; the usual parent check of a list. */
    public Mono<Boolean> exists(String table, String id, String organisationId) {
        if (id == null) {
            return Mono.just(true);
        }
        return db.sql("SELECT 1 FROM " + table + " WHERE id = :id AND organisation_id = :org")
                .bind("id", id).bind("org", organisationId)
                .map(row -> true).one().defaultIfEmpty(false);
    }
}
