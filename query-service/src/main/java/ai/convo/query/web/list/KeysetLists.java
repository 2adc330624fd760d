package ai.convo.query.web.list;

import ai.convo.http.list.ListRequest;
import ai.convo.http.list.SortKey;
import ai.convo.http.media.Renderer;
import ai.convo.http.problem.ApiProblem;
import io.r2dbc.spi.Readable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import ai.convo.query.readmodel.ReadModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one implementation of list paging: offset paging (skip) and keyset cursors. A cursor is a 24-character
 * handle to a stored boundary (the sort values and id of the row it continues from), so it stays valid when
 * that row is deleted, and inserts or deletes elsewhere never make a row repeat or vanish from a walk.
 */
@Component
public class KeysetLists {

    public record Page(List<Map<String, Object>> items, long total, String nextCursor, String previousCursor) {
    }

    private record Key(String field, Column column, boolean ascending) {
    }

    /** A stored cursor: the list it belongs to, its order and filter, the direction and boundary values. */
    private record Cursor(String listKey, List<SortKey> sort, String filter, boolean forward, List<Object> values) {
    }

    /**
     * Cursors this process stored (or refreshed) lately, by id, with when. Handing out one of them again needs
     * no write: its row is younger than {@link #REFRESH_AFTER_NANOS} plus the refresh margin, far from expiry.
     */
    private final ConcurrentHashMap<String, Long> stored = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Cursor, String> ids = new ConcurrentHashMap<>();
    static final long REFRESH_AFTER_NANOS = 3_600_000_000_000L;
    static final int MAX_REMEMBERED = 100_000;

    /** Rows of the list: the read model (possibly a replica). */
    private final DatabaseClient rowsDb;
    /** Cursors: stored on the primary and read back there, so a cursor works on every replica at once. */
    private final DatabaseClient cursorsDb;

    @Autowired
    public KeysetLists(@ReadModel DatabaseClient rows, DatabaseClient cursors) {
        this.rowsDb = rows;
        this.cursorsDb = cursors;
    }

    /** Lists whose rows and cursors are both on one database (a table written outside the event log). */
    public KeysetLists(DatabaseClient db) {
        this(db, db);
    }

    public Mono<Page> page(ListDefinition list, Scope scope, ListRequest request,
                           Function<Readable, Map<String, Object>> mapper) {
        return page(list, scope, request, null, mapper);
    }

    /**
     * A page of the list, or a 404 naming {@code parent} when the parent is not visible (null: the list has none).
     * The parent check, the total and the rows are one statement.
     */
    public Mono<Page> page(ListDefinition list, Scope scope, ListRequest request, Parent parent,
                           Function<Readable, Map<String, Object>> mapper) {
        String cursorId = request.next() != null ? request.next() : request.previous();
        if (cursorId == null) {
            List<SortKey> sort = request.sort().isEmpty() ? List.of(new SortKey("createdAt", true)) : request.sort();
            return fetch(list, scope, request, sort, request.filter(), null, parent, mapper);
        }
        return loadCursor(cursorId).flatMap(cursor -> {
            if (!cursor.listKey().equals(scope.key())) {
                return Mono.error(ApiProblem.invalidParameter(request.next() != null ? "next" : "previous",
                        "This cursor was issued for a different list; use cursors from this list's own responses."));
            }
            if (!request.sort().isEmpty() && !request.sort().equals(cursor.sort())) {
                return Mono.error(ApiProblem.invalidParameter("sort", "The cursor continues a list sorted by "
                        + wire(cursor.sort()) + "; omit sort or give the same one."));
            }
            if (request.filter() != null && !request.filter().equals(cursor.filter())) {
                return Mono.error(ApiProblem.invalidParameter("filter",
                        "The cursor continues a list with another filter; omit filter or give the same one."));
            }
            return fetch(list, scope, request, cursor.sort(), cursor.filter(), cursor, parent, mapper);
        });
    }

    private Mono<Page> fetch(ListDefinition list, Scope scope, ListRequest request, List<SortKey> sort, String filter,
                             Cursor cursor, Parent parent, Function<Readable, Map<String, Object>> mapper) {
        List<Key> keys = keys(list, sort);
        boolean forward = cursor == null || cursor.forward();
        Map<String, Object> binds = new LinkedHashMap<>(scope.binds());
        StringBuilder where = new StringBuilder(scope.where());
        if (filter != null) {
            where.append(" AND ").append(list.filterColumn()).append(" ILIKE :filter ESCAPE '\\'");
            binds.put("filter", "%" + filter.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        String countSql = filter == null && scope.totalSql() != null ? scope.totalSql()
                : "SELECT count(*) AS total FROM " + list.table() + " WHERE " + where;
        if (parent != null) {
            binds.putAll(parent.binds());
        }
        Map<String, Object> emptyPageBinds = new LinkedHashMap<>(binds);
        if (cursor != null) {
            where.append(" AND (").append(keyset(keys, forward, cursor.values(), binds)).append(')');
        }
        String totalSql = "coalesce((SELECT t.total FROM (" + countSql + ") t LIMIT 1), 0)";
        String visible = parent == null ? "TRUE" : "EXISTS (" + parent.existsSql() + ")";
        // One statement: the rows, each with the total, and only while the parent is visible. PostgreSQL runs the
        // total and the parent check once per statement (uncorrelated subqueries), the latter as a one-time filter.
        StringBuilder page = new StringBuilder("SELECT ").append(totalSql).append(" AS list_total, *");
        for (int i = 0; i < keys.size(); i++) {
            page.append(", ").append(keys.get(i).column().sql()).append(" AS k").append(i);
        }
        page.append(" FROM ").append(list.table()).append(" WHERE ").append(where);
        if (parent != null) {
            page.append(" AND ").append(visible);
        }
        page.append(" ORDER BY ");
        for (int i = 0; i < keys.size(); i++) {
            String direction = keys.get(i).ascending() == forward ? " ASC" : " DESC";
            page.append(i == 0 ? "" : ", ").append(keys.get(i).column().sql()).append(direction);
        }
        page.append(" LIMIT ").append(request.limit() + 1);
        if (cursor == null && request.skip() > 0) {
            page.append(" OFFSET ").append(request.skip());
        }
        // Only the first row carries the total the page needs, and only the first and the limit-th row can bound a
        // cursor (a row past the limit only says there is more): the rest are not decoded for it.
        int[] index = {0};
        int last = request.limit() - 1;
        Mono<List<Fetched>> rows = bind(rowsDb.sql(page.toString()), binds)
                .map(row -> {
                    int i = index[0]++;
                    return new Fetched(true, i == 0 ? row.get("list_total", Long.class) : null,
                            new Row(mapper.apply(row), i == 0 || i == last ? boundary(row, keys) : null));
                })
                .all()
                .collectList();
        // No row: a second, rare statement tells an empty page (with its total) from a parent the caller cannot see.
        Mono<List<Fetched>> fetched = rows.flatMap(found -> !found.isEmpty() ? Mono.just(found)
                : bind(rowsDb.sql("SELECT " + visible + " AS list_visible, " + totalSql + " AS list_total"), emptyPageBinds)
                        .map(row -> List.of(new Fetched(Boolean.TRUE.equals(row.get("list_visible", Boolean.class)),
                                row.get("list_total", Long.class), null)))
                        .one());
        return fetched.flatMap(all -> {
            if (all.isEmpty() || !all.get(0).visible()) {
                return Mono.error(ApiProblem.notFound((parent == null ? "The list" : parent.what()) + " does not exist."));
            }
            long total = all.get(0).total() == null ? 0 : all.get(0).total();
            List<Row> found = new ArrayList<>(all.size());
            all.forEach(one -> {
                if (one.row() != null) {
                    found.add(one.row());
                }
            });
            boolean more = found.size() > request.limit();
            if (more) {
                found.remove(found.size() - 1);
            }
            if (!forward) {
                Collections.reverse(found);
            }
            boolean hasNext;
            boolean hasPrevious;
            if (cursor == null) {
                hasNext = more;
                hasPrevious = request.skip() > 0 && !found.isEmpty();
            } else if (forward) {
                hasNext = more;
                hasPrevious = true;
            } else {
                hasNext = true;
                hasPrevious = more;
            }
            List<Cursor> toStore = new ArrayList<>(2);
            Cursor next = null;
            Cursor previous = null;
            if (found.isEmpty()) {
                // An empty page still lets the client turn back (or forward) from where it stood.
                if (cursor != null) {
                    Cursor back = new Cursor(scope.key(), sort, filter, !forward, cursor.values());
                    if (forward) {
                        previous = back;
                    } else {
                        next = back;
                    }
                }
            } else {
                if (hasNext) {
                    next = new Cursor(scope.key(), sort, filter, true, found.get(found.size() - 1).boundary());
                }
                if (hasPrevious) {
                    previous = new Cursor(scope.key(), sort, filter, false, found.get(0).boundary());
                }
            }
            if (next != null) {
                toStore.add(next);
            }
            if (previous != null) {
                toStore.add(previous);
            }
            String nextId = next == null ? null : id(next);
            String previousId = previous == null ? null : id(previous);
            List<Map<String, Object>> items = found.stream().map(Row::item).toList();
            return storeCursors(toStore).thenReturn(new Page(items, total, nextId, previousId));
        });
    }

    private record Row(Map<String, Object> item, List<Object> boundary) {
    }

    /** A row of the list statement: the parent's visibility and the total (first row only), and an item if any. */
    private record Fetched(boolean visible, Long total, Row row) {
    }

    private static List<Key> keys(ListDefinition list, List<SortKey> sort) {
        List<Key> keys = new ArrayList<>();
        for (SortKey key : sort) {
            Column column = list.sortable().get(key.field());
            if (column == null) {
                throw ApiProblem.invalidParameter("sort", "Cannot sort by '" + key.field() + "'.");
            }
            keys.add(new Key(key.field(), column, key.ascending()));
        }
        // The id ends every order, so the order is total and a boundary is exact.
        keys.add(new Key("_id", Column.text("id"), sort.isEmpty() || sort.get(sort.size() - 1).ascending()));
        return keys;
    }

    /**
     * The rows after (or before) a boundary. When every key has one direction (always so for one sort key plus
     * the id) this is a row comparison (k0, k1, ...) > (v0, v1, ...), which PostgreSQL answers as an index range;
     * mixed directions need (k0 > v0) OR (k0 = v0 AND k1 < v1) OR ... Every key is NOT NULL, so both are exact.
     */
    private static String keyset(List<Key> keys, boolean forward, List<Object> values, Map<String, Object> binds) {
        if (values.size() != keys.size()) {
            throw ApiProblem.badRequest("The cursor no longer matches this list; start again from the first page.");
        }
        for (int i = 0; i < keys.size(); i++) {
            binds.put("c" + i, values.get(i));
        }
        boolean uniform = keys.stream().allMatch(key -> key.ascending() == keys.get(0).ascending());
        if (uniform) {
            StringBuilder columns = new StringBuilder("(");
            StringBuilder bounds = new StringBuilder("(");
            for (int i = 0; i < keys.size(); i++) {
                columns.append(i == 0 ? "" : ", ").append(keys.get(i).column().sql());
                bounds.append(i == 0 ? "" : ", ").append(":c").append(i);
            }
            boolean greater = keys.get(0).ascending() == forward;
            return columns.append(") ").append(greater ? ">" : "<").append(' ').append(bounds).append(')').toString();
        }
        List<String> alternatives = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            StringBuilder term = new StringBuilder("(");
            for (int j = 0; j < i; j++) {
                term.append(keys.get(j).column().sql()).append(" = :c").append(j).append(" AND ");
            }
            boolean greater = keys.get(i).ascending() == forward;
            term.append(keys.get(i).column().sql()).append(greater ? " > " : " < ").append(":c").append(i).append(')');
            alternatives.add(term.toString());
        }
        return String.join(" OR ", alternatives);
    }

    private static List<Object> boundary(Readable row, List<Key> keys) {
        List<Object> values = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            values.add(row.get("k" + i, keys.get(i).column().javaType()));
        }
        return values;
    }

    private static DatabaseClient.GenericExecuteSpec bind(DatabaseClient.GenericExecuteSpec spec, Map<String, Object> binds) {
        for (Map.Entry<String, Object> bind : binds.entrySet()) {
            spec = spec.bind(bind.getKey(), bind.getValue());
        }
        return spec;
    }

    // ---- cursor storage: content-addressed, so the same boundary always yields the same cursor.

    /**
     * Stores new cursors, and re-dates those handed out again (at most hourly), so a cursor in a fresh answer
     * always has about the full time to live, however long ago it was first made.
     */
    private Mono<Void> storeCursors(List<Cursor> all) {
        long now = System.nanoTime();
        List<Cursor> cursors = all.stream().filter(cursor -> {
            Long at = stored.get(id(cursor));
            return at == null || now - at > REFRESH_AFTER_NANOS;
        }).toList();
        if (cursors.isEmpty()) {
            return Mono.empty();
        }
        StringBuilder sql = new StringBuilder("INSERT INTO list_cursor (id, list_key, payload) VALUES ");
        for (int i = 0; i < cursors.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("(:id").append(i).append(", :key").append(i).append(", :payload")
                    .append(i).append(')');
        }
        sql.append(" ON CONFLICT (id) DO UPDATE SET created_at = now() WHERE list_cursor.created_at < now() - interval '1 hour'");
        DatabaseClient.GenericExecuteSpec spec = cursorsDb.sql(sql.toString());
        for (int i = 0; i < cursors.size(); i++) {
            Cursor cursor = cursors.get(i);
            spec = spec.bind("id" + i, id(cursor)).bind("key" + i, cursor.listKey()).bind("payload" + i, payload(cursor));
        }
        return spec.then().doOnSuccess(done -> {
            if (stored.size() >= MAX_REMEMBERED) {
                stored.clear();
            }
            cursors.forEach(cursor -> stored.put(id(cursor), now));
        });
    }

    private Mono<Cursor> loadCursor(String id) {
        return cursorsDb.sql("SELECT list_key, payload FROM list_cursor WHERE id = :id")
                .bind("id", id)
                .map(row -> parse(row.get("list_key", String.class), row.get("payload", String.class)))
                .one()
                .switchIfEmpty(Mono.error(() -> ApiProblem.invalidParameter("cursor", "The cursor " + id
                        + " is unknown or has expired; start again from the first page.")));
    }

    private static String payload(Cursor cursor) {
        ObjectNode node = Renderer.JSON.createObjectNode();
        ArrayNode sort = node.putArray("sort");
        cursor.sort().forEach(key -> sort.add(key.wire()));
        node.put("filter", cursor.filter());
        node.put("forward", cursor.forward());
        ArrayNode values = node.putArray("values");
        for (Object value : cursor.values()) {
            if (value == null) {
                values.addNull();
            } else if (value instanceof Long l) {
                values.add(l);
            } else if (value instanceof Boolean b) {
                values.add(b);
            } else {
                values.add(value.toString());
            }
        }
        return node.toString();
    }

    private static Cursor parse(String listKey, String payload) {
        JsonNode node = Renderer.JSON.readTree(payload);
        List<SortKey> sort = new ArrayList<>();
        for (JsonNode key : node.get("sort")) {
            String[] parts = key.stringValue().split(":");
            sort.add(new SortKey(parts[0], parts[1].equals("asc")));
        }
        List<Object> values = new ArrayList<>();
        for (JsonNode value : node.get("values")) {
            values.add(value.isNull() ? null : value.isBoolean() ? value.booleanValue()
                    : value.isIntegralNumber() ? value.longValue() : value.stringValue());
        }
        JsonNode filter = node.get("filter");
        return new Cursor(listKey, sort, filter == null || filter.isNull() ? null : filter.stringValue(),
                node.get("forward").booleanValue(), values);
    }

    /** The id of a cursor, remembered: a page read again hands out the same cursors. */
    private String id(Cursor cursor) {
        String known = ids.get(cursor);
        if (known != null) {
            return known;
        }
        if (ids.size() >= MAX_REMEMBERED) {
            ids.clear();
        }
        String id = idOf(cursor);
        ids.put(cursor, id);
        return id;
    }

    static String idOf(Cursor cursor) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((cursor.listKey() + "\n" + payload(cursor)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 24);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String wire(List<SortKey> sort) {
        return String.join(",", sort.stream().map(SortKey::wire).toList());
    }
}
