package ai.convo.http.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import tools.jackson.databind.JsonNode;

class RendererTest {

    private static final String NEXT = "bbbbbbbbbbbbbbbbbbbbbbb2";
    private static final String PREVIOUS = "ccccccccccccccccccccccc3";
    private static final String OLD_CURSOR = "aaaaaaaaaaaaaaaaaaaaaaa1";

    private static MockServerWebExchange get(String uri) {
        return MockServerWebExchange.from(MockServerHttpRequest.get(uri));
    }

    private static Map<String, Object> locale(String id, String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("_id", id);
        body.put("name", name);
        body.put("primary", false);
        return body;
    }

    private static Representation.Page page(String next, String previous) {
        return new Representation.Page(List.of(locale("x1", "German"), locale("x2", "French")), 7, next, previous,
                item -> "/new/v2.0/locales/" + item.get("_id"));
    }

    private static JsonNode json(byte[] bytes) {
        return Renderer.JSON.readTree(bytes);
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    // ---- JSON and HAL

    @Test
    void givenASingleRecord_whenRenderedAsJson_thenTheSameFieldsInTheSameOrderAndNoLinks() {
        // given
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        JsonNode body = json(Renderer.render(get("/new/v2.0/locales/x1"), ApiMedia.JSON, single));

        // then
        assertThat(names(body)).containsExactly("_id", "name", "primary");
        assertThat(body.get("_id").stringValue()).isEqualTo("x1");
        assertThat(body.get("name").stringValue()).isEqualTo("German");
        assertThat(body.get("primary").booleanValue()).isFalse();
    }

    @Test
    void givenASingleRecord_whenRenderedAsHal_thenSelfLinkIsTheRequestPathAndQuery() {
        // given
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        JsonNode body = json(Renderer.render(get("/new/v2.0/locales/x1?preferred=yes"), ApiMedia.HAL, single));

        // then
        assertThat(names(body)).containsExactly("_id", "name", "primary", "_links");
        assertThat(body.at("/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales/x1?preferred=yes");
    }

    @Test
    void givenAnApiKeyInTheQuery_whenRenderedAsHal_thenTheSelfLinkDoesNotCarryIt() {
        // given
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        JsonNode body = json(Renderer.render(get("/new/v2.0/locales/x1?a=1&api_key=s3cr3t&b=2"), ApiMedia.HAL, single));

        // then
        String href = body.at("/_links/self/href").stringValue();
        assertThat(href).isEqualTo("/new/v2.0/locales/x1?a=1&b=2");
        assertThat(text(Renderer.render(get("/new/v2.0/locales/x1?a=1&api_key=s3cr3t&b=2"), ApiMedia.HAL, single)))
                .doesNotContain("s3cr3t");
    }

    @Test
    void givenOnlyAnApiKeyInTheQuery_whenRenderedAsHal_thenTheSelfLinkIsThePlainPath() {
        // given
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        JsonNode body = json(Renderer.render(get("/new/v2.0/locales/x1?api_key=s3cr3t"), ApiMedia.HAL, single));

        // then: no credential, and no dangling '?'
        assertThat(body.at("/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales/x1");
    }

    @Test
    void givenAPercentEncodedApiKeyName_whenRenderedAsHal_thenTheSelfLinkDoesNotCarryItEither() {
        // given: Spring decodes "api%5Fkey" to "api_key", so authentication accepts it as the key
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest
                .method(HttpMethod.GET, URI.create("/new/v2.0/locales/x1?api%5Fkey=s3cr3t&a=1")).build());
        assertThat(exchange.getRequest().getQueryParams().getFirst("api_key")).isEqualTo("s3cr3t");
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        JsonNode body = json(Renderer.render(exchange, ApiMedia.HAL, single));

        // then
        assertThat(body.at("/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales/x1?a=1");
    }

    @Test
    void givenAPage_whenRenderedAsJson_thenTheEnvelopeIsItemsTotalNextCursorPreviousCursorInThatOrder() {
        // given
        Representation.Page page = page(NEXT, null);

        // when
        JsonNode body = json(Renderer.render(get("/new/v2.0/locales"), ApiMedia.JSON, page));

        // then
        assertThat(names(body)).containsExactly("items", "total", "nextCursor", "previousCursor");
        assertThat(body.get("items")).hasSize(2);
        assertThat(names(body.get("items").get(0))).containsExactly("_id", "name", "primary");
        assertThat(body.get("items").get(1).get("_id").stringValue()).isEqualTo("x2");
        assertThat(body.get("total").longValue()).isEqualTo(7);
        assertThat(body.get("nextCursor").stringValue()).isEqualTo(NEXT);
        assertThat(body.get("previousCursor").isNull()).as("a missing cursor is an explicit null").isTrue();
    }

    @Test
    void givenAnEmptyPage_whenRenderedAsJson_thenAnEmptyItemsArrayAndNullCursors() {
        // given
        Representation.Page page = new Representation.Page(List.of(), 0, null, null, item -> "/unused");

        // when
        String body = text(Renderer.render(get("/new/v2.0/locales"), ApiMedia.JSON, page));

        // then
        assertThat(body).isEqualTo("{\"items\":[],\"total\":0,\"nextCursor\":null,\"previousCursor\":null}");
    }

    @Test
    void givenAPageWithBothCursors_whenRenderedAsHal_thenSelfNextPreviousAndItemLinks() {
        // given
        MockServerWebExchange exchange = get("/new/v2.0/locales?limit=2&api_key=s3cr3t&next=" + OLD_CURSOR);

        // when
        byte[] bytes = Renderer.render(exchange, ApiMedia.HAL, page(NEXT, PREVIOUS));
        JsonNode body = json(bytes);

        // then
        assertThat(names(body)).containsExactly("items", "total", "nextCursor", "previousCursor", "_links");
        assertThat(names(body.get("_links"))).containsExactly("self", "next", "previous");
        assertThat(body.at("/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales?limit=2&next=" + OLD_CURSOR);
        assertThat(body.at("/_links/next/href").stringValue()).isEqualTo("/new/v2.0/locales?limit=2&next=" + NEXT);
        assertThat(body.at("/_links/previous/href").stringValue())
                .isEqualTo("/new/v2.0/locales?limit=2&previous=" + PREVIOUS);
        assertThat(body.at("/items/0/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales/x1");
        assertThat(body.at("/items/1/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales/x2");
        assertThat(names(body.at("/items/0"))).containsExactly("_id", "name", "primary", "_links");
        assertThat(text(bytes)).doesNotContain("s3cr3t");
    }

    @Test
    void givenAPageWithoutCursors_whenRenderedAsHal_thenOnlyTheSelfLink() {
        // given
        MockServerWebExchange exchange = get("/new/v2.0/locales");

        // when
        JsonNode body = json(Renderer.render(exchange, ApiMedia.HAL, page(null, null)));

        // then
        assertThat(names(body.get("_links"))).containsExactly("self");
        assertThat(body.at("/_links/self/href").stringValue()).isEqualTo("/new/v2.0/locales");
        assertThat(body.get("nextCursor").isNull()).isTrue();
        assertThat(body.get("previousCursor").isNull()).isTrue();
    }

    @Test
    void givenAPageWithOnlyAPreviousCursor_whenRenderedAsHal_thenNoNextLinkAndSkipIsDropped() {
        // given
        MockServerWebExchange exchange = get("/new/v2.0/locales?skip=4&filter=ger&previous=" + OLD_CURSOR);

        // when
        JsonNode body = json(Renderer.render(exchange, ApiMedia.HAL, page(null, PREVIOUS)));

        // then
        assertThat(names(body.get("_links"))).containsExactly("self", "previous");
        assertThat(body.at("/_links/previous/href").stringValue())
                .isEqualTo("/new/v2.0/locales?filter=ger&previous=" + PREVIOUS);
    }

    @Test
    void givenAPlainJsonPage_whenRendered_thenItemsCarryNoLinks() {
        // given / when
        JsonNode body = json(Renderer.render(get("/new/v2.0/locales"), ApiMedia.JSON, page(NEXT, PREVIOUS)));

        // then
        assertThat(body.has("_links")).isFalse();
        assertThat(body.at("/items/0").has("_links")).isFalse();
    }

    // ---- XML

    @Test
    void givenAValueWithACharacterXmlCannotHold_whenRenderedAsXml_thenItIsReplacedNotAFailure() {
        // given: a NUL a client put into a value (echoed in a problem detail, or stored)
        Representation.Single single = new Representation.Single("problem", Map.of("detail", "got 'a\u0000b'"));
        // when
        String xml = text(Renderer.render(get("/x"), ApiMedia.XML, single));
        // then
        assertThat(xml).isEqualTo("<problem><detail>got 'a\uFFFDb'</detail></problem>");
    }

    @Test
    void givenASingleRecord_whenRenderedAsXml_thenTheNameIsTheRootAndFieldsAreElements() {
        // given
        Map<String, Object> body = locale("x1", "German");
        body.put("tags", List.of("a", "b"));
        Representation.Single single = new Representation.Single("locale", body);

        // when
        String xml = text(Renderer.render(get("/new/v2.0/locales/x1"), ApiMedia.XML, single));

        // then
        assertThat(xml).isEqualTo("<locale><_id>x1</_id><name>German</name><primary>false</primary>"
                + "<tags><item>a</item><item>b</item></tags></locale>");
    }

    @Test
    void givenASingleRecord_whenRenderedAsTextXml_thenTheSameXml() {
        // given
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        String textXml = text(Renderer.render(get("/x"), ApiMedia.TEXT_XML, single));
        String applicationXml = text(Renderer.render(get("/x"), ApiMedia.XML, single));

        // then
        assertThat(textXml).isEqualTo(applicationXml).startsWith("<locale>");
    }

    @Test
    void givenAPage_whenRenderedAsXml_thenListWithItemsItemThenTotalAndCursors() {
        // given
        Representation.Page page = page(NEXT, null);

        // when
        String xml = text(Renderer.render(get("/new/v2.0/locales"), ApiMedia.XML, page));

        // then
        assertThat(xml).startsWith("<list><items><item><_id>x1</_id><name>German</name><primary>false</primary></item>"
                + "<item><_id>x2</_id><name>French</name><primary>false</primary></item></items><total>7</total>"
                + "<nextCursor>" + NEXT + "</nextCursor><previousCursor");
        assertThat(xml).endsWith("</list>");
        assertThat(xml).doesNotContain("_links");
    }

    // ---- CSV

    @Test
    void givenAPage_whenRenderedAsCsv_thenAHeaderRowAndOneRowPerItemWithCrlf() {
        // given
        Representation.Page page = page(NEXT, PREVIOUS);

        // when
        String csv = text(Renderer.render(get("/new/v2.0/locales"), ApiMedia.CSV, page));

        // then
        assertThat(csv).isEqualTo("_id,name,primary\r\nx1,German,false\r\nx2,French,false\r\n");
    }

    @Test
    void givenASingleRecord_whenRenderedAsCsv_thenHeaderAndOneRow() {
        // given
        Representation.Single single = new Representation.Single("locale", locale("x1", "German"));

        // when
        String csv = text(Renderer.render(get("/new/v2.0/locales/x1"), ApiMedia.CSV, single));

        // then
        assertThat(csv).isEqualTo("_id,name,primary\r\nx1,German,false\r\n");
    }

    @Test
    void givenRowsWithDifferentFields_whenRenderedAsCsv_thenColumnsAreTheUnionAndMissingCellsAreEmpty() {
        // given
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("a", 1);
        first.put("b", null);
        Map<String, Object> second = new LinkedHashMap<>();
        second.put("c", "x");
        second.put("a", 2);

        // when
        String csv = text(Renderer.csv(List.of(first, second)));

        // then
        assertThat(csv).isEqualTo("a,b,c\r\n1,,\r\n2,,x\r\n");
    }

    @Test
    void givenCellsWithCommasQuotesAndNewlines_whenRenderedAsCsv_thenTheyAreQuotedAndQuotesDoubled() {
        // given
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("comma", "a,b");
        row.put("quote", "say \"hi\"");
        row.put("newline", "line1\nline2");
        row.put("cr", "x\ry");
        row.put("plain", "plain");

        // when
        String csv = text(Renderer.csv(List.of(row)));

        // then
        assertThat(csv).isEqualTo("comma,quote,newline,cr,plain\r\n"
                + "\"a,b\",\"say \"\"hi\"\"\",\"line1\nline2\",\"x\ry\",plain\r\n");
    }

    @Test
    void givenStringCellsStartingLikeAFormula_whenRenderedAsCsv_thenTheyAreNeutralised() {
        // given
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("eq", "=SUM(A1:A2)");
        row.put("plus", "+1");
        row.put("minus", "-2+3");
        row.put("at", "@cmd");
        row.put("safe", "a=b");

        // when
        String csv = text(Renderer.csv(List.of(row)));

        // then
        assertThat(csv.split("\r\n")[1]).isEqualTo("'=SUM(A1:A2),'+1,'-2+3,'@cmd,a=b");
    }

    @Test
    void givenAFormulaWithACommaInside_whenRenderedAsCsv_thenItIsNeutralisedAndQuoted() {
        // given
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("f", "=HYPERLINK(\"http://x\",\"y\")");

        // when
        String csv = text(Renderer.csv(List.of(row)));

        // then
        assertThat(csv).isEqualTo("f\r\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\r\n");
    }

    @Test
    void givenNegativeNumbersAndBooleans_whenRenderedAsCsv_thenTheyStayPlain() {
        // given
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("int", -5);
        row.put("long", -1_700_000_000_000L);
        row.put("double", -2.5);
        row.put("bool", true);

        // when
        String csv = text(Renderer.csv(List.of(row)));

        // then
        assertThat(csv).isEqualTo("int,long,double,bool\r\n-5,-1700000000000,-2.5,true\r\n");
    }

    @Test
    void givenNestedValues_whenRenderedAsCsv_thenTheyAreJsonText() {
        // given
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("tags", List.of("a"));
        nested.put("n", 1);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("_id", "x1");
        row.put("metaData", nested);
        row.put("list", List.of("only"));

        // when
        String csv = text(Renderer.csv(List.of(row)));

        // then
        assertThat(csv).isEqualTo("_id,metaData,list\r\n"
                + "x1,\"{\"\"tags\"\":[\"\"a\"\"],\"\"n\"\":1}\",\"[\"\"only\"\"]\"\r\n");
    }
}
