package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.openapi.ApiDescription;
import ai.convo.testing.ApiContract;
import ai.convo.testing.HostileCorpus;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The query service's served OpenAPI document: valid OpenAPI 3.1, every route of the handler mappings in it, and a
 * read of every route (lists with a project to list) and its answer as it describes them.
 */
class ApiDescriptionTest extends QueryTestBase {

    static final String ABSENT = "ffffffffffffffffffffffff";

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    ApiContract contract;

    @BeforeEach
    void document() {
        contract = ApiContract.served(Integer.parseInt(environment.getProperty("local.server.port")), "/new");
    }

    @Test
    void givenTheRouteTable_whenTheDocumentIsServed_thenItIsValidOpenApi31WithEveryRoute() {
        // given: the routes, read from the running service as the hostile corpus reads them
        List<String> routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .map(r -> r.method() + " " + ApiDescription.pathOf(r.pattern())).distinct().toList();
        // then
        assertThat(contract.parserMessages()).isEmpty();
        assertThat(contract.openApi().getOpenapi()).isEqualTo("3.1.0");
        assertThat(routes).hasSizeGreaterThan(40);
        assertThat(contract.operations()).containsExactlyInAnyOrderElementsOf(routes);
        Operation locales = operation("GET", "/new/v2.0/locales");
        assertThat(locales.getOperationId()).isEqualTo("indexLocales");
        assertThat(locales.getParameters()).extracting(Parameter::getName)
                .contains("limit", "skip", "filter", "sort", "next", "previous");
        assertThat(locales.getParameters()).filteredOn(p -> p.getName().equals("sort")).singleElement()
                .satisfies(sort -> assertThat(sort.getDescription()).contains("nluLanguage", "createdAt"));
    }

    @Test
    void givenEveryRoute_whenReadAsTheDocumentAllows_thenRequestsAndAnswersMatchItAndEveryListIsDescribedAsOne() {
        // given: an organisation with a project and its primary locale
        Caller caller = newOrganisation();
        Project project = project(caller, "described", 1_000);
        Map<String, String> headers = Map.of("X-API-Key", caller.apiKey(), "Accept", "application/json",
                "X-Event-Position", Long.toString(project.position()));
        // when: one read of every route; lists get a page size (and a project where their path has none)
        List<ApiContract.Exchange> exchanges = new ArrayList<>();
        for (String route : contract.operations()) {
            String method = route.substring(0, route.indexOf(' '));
            String template = route.substring(route.indexOf(' ') + 1);
            String path = template.replace("{projectId}", project.id()).replace("{localeId}", project.primaryLocaleId())
                    .replaceAll("\\{[^}]+}", ABSENT);
            Map<String, String> query = new LinkedHashMap<>();
            if (isList(operation(method, template))) {
                query.put("limit", "2");
                if (!template.contains("{projectId}")) {
                    query.put("projectId", project.id());
                }
            }
            exchanges.add(contract.send(method, path, query, headers, null));
        }
        // then: as described, and an answer in the list envelope comes from a route described as a list
        List<String> mismatches = exchanges.stream().flatMap(e -> contract.mismatches(e).stream()).toList();
        assertThat(mismatches).isEmpty();
        List<String> pages = new ArrayList<>();
        for (ApiContract.Exchange exchange : exchanges) {
            if (exchange.status() == 200 && isEnvelope(exchange.responseBody())) {
                pages.add(exchange.path());
                assertThat(exchange.query()).as("%s answers a page but is not described as a list", exchange.path())
                        .containsKey("limit");
            }
        }
        assertThat(pages).contains("/new/v2.0/projects", "/new/v2.0/locales");
    }

    @Test
    void givenAnswersAndRequestsThatDifferFromTheDocument_whenValidated_thenEachMismatchIsReported() {
        // given: a real page of locales, the same page without its items, and a request with a page size of 0
        Caller caller = newOrganisation();
        Project project = project(caller, "planted", 1_000);
        Map<String, String> headers = Map.of("X-API-Key", caller.apiKey(), "Accept", "application/json",
                "X-Event-Position", Long.toString(project.position()));
        ApiContract.Exchange page = contract.send("GET", "/new/v2.0/locales", Map.of("projectId", project.id()),
                headers, null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(contract.mismatches(page)).isEmpty();
        ApiContract.Exchange noItems = page.answered(200, "application/json",
                "{\"total\":1,\"nextCursor\":null,\"previousCursor\":null}".getBytes(StandardCharsets.UTF_8));
        ApiContract.Exchange sizeZero = new ApiContract.Exchange("GET", "/new/v2.0/locales", Map.of("limit", "0"),
                headers, null, page.status(), page.responseHeaders(), page.responseBody());
        // then
        assertThat(String.join("\n", contract.mismatches(noItems))).contains("items");
        assertThat(String.join("\n", contract.mismatches(sizeZero))).contains("query parameter limit");
    }

    private Operation operation(String method, String path) {
        return contract.openApi().getPaths().get(path).readOperationsMap().get(PathItem.HttpMethod.valueOf(method));
    }

    private static boolean isList(Operation operation) {
        return operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> p.getName().equals("limit"));
    }

    private static boolean isEnvelope(byte[] body) {
        try {
            JsonNode node = JsonMapper.builder().build().readTree(body);
            return node.isObject() && node.has("items") && node.has("total") && node.has("nextCursor");
        } catch (RuntimeException notJson) {
            return false;
        }
    }
}
