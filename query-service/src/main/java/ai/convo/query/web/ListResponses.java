package ai.convo.query.web;

import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Representation;
import ai.convo.query.web.list.KeysetLists;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ServerWebExchange;

/** A list page as an HTTP answer; each item's HAL link is the list path plus the item id. */
public final class ListResponses {

    private ListResponses() {
    }

    public static ResponseEntity<byte[]> page(ServerWebExchange exchange, ApiMedia media, KeysetLists.Page page) {
        String listPath = exchange.getRequest().getPath().value();
        return ApiResponses.ok(exchange, media, new Representation.Page(page.items(), page.total(), page.nextCursor(),
                page.previousCursor(), item -> listPath + "/" + item.get("_id")));
    }
}
