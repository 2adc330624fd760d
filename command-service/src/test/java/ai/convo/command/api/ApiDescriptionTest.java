package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.openapi.ApiDescription;
import ai.convo.testing.ApiContract;
import ai.convo.testing.HostileCorpus;
import io.swagger.v3.oas.models.Operation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * The command service's served OpenAPI document: valid OpenAPI 3.1, every route of the handler mappings in it, and
 * real requests to every route and their answers as it describes them (checked by a validator library).
 */
class ApiDescriptionTest extends ApiTestBase {

    static final String ABSENT = "ffffffffffffffffffffffff";
    private static final Pattern VARIABLE = Pattern.compile("\\{[^}]+}");

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
        assertThat(routes).hasSizeGreaterThan(60);
        assertThat(contract.operations()).containsExactlyInAnyOrderElementsOf(routes);
        assertThat(operation("POST", "/new/v2.0/projects").getOperationId()).isEqualTo("createProject");
        assertThat(operation("PATCH", "/new/v2.0/locales/{localeId}").getOperationId()).isEqualTo("updateLocale");
    }

    @Test
    void givenEveryRoute_whenRequestsTheDocumentAllowsAreSent_thenRequestsAndAnswersMatchIt() {
        // given: a project of the admin's; every other id names nothing
        List<ApiContract.Exchange> exchanges = new ArrayList<>();
        ApiContract.Exchange created = contract.send("POST", "/new/v2.0/projects", Map.of(), json(),
                "{\"name\":\"described\",\"locale\":\"en-US\"}".getBytes(StandardCharsets.UTF_8));
        exchanges.add(created);
        assertThat(created.status()).isEqualTo(201);
        String projectId = (String) new tools.jackson.databind.json.JsonMapper().readValue(created.responseBody(),
                Map.class).get("_id");
        exchanges.add(contract.send("PATCH", "/new/v2.0/projects/" + projectId, Map.of(), json(),
                "{\"name\":\"described again\"}".getBytes(StandardCharsets.UTF_8)));
        exchanges.add(contract.send("POST", "/new/v2.0/projects/validateprojectname", Map.of(), json(),
                "{\"name\":\"free name\"}".getBytes(StandardCharsets.UTF_8)));
        // when: one request to every route, with the body the document asks for
        for (String route : contract.operations()) {
            String method = route.substring(0, route.indexOf(' '));
            String path = VARIABLE.matcher(route.substring(route.indexOf(' ') + 1)).replaceAll(ABSENT);
            var body = contract.openApi().getPaths().get(route.substring(route.indexOf(' ') + 1))
                    .readOperationsMap().get(io.swagger.v3.oas.models.PathItem.HttpMethod.valueOf(method))
                    .getRequestBody();
            if (body == null) {
                exchanges.add(contract.send(method, path, Map.of(), Map.of("X-API-Key", ADMIN_KEY,
                        "Accept", "application/json"), null));
            } else if (body.getContent().containsKey("multipart/form-data")) {
                Map<String, String> headers = new LinkedHashMap<>(json());
                headers.put("Content-Type", "multipart/form-data; boundary=b");
                exchanges.add(contract.send(method, path, Map.of(), headers, ("--b\r\nContent-Disposition: form-data; "
                        + "name=\"projectId\"\r\n\r\n" + ABSENT + "\r\n--b--\r\n").getBytes(StandardCharsets.UTF_8)));
            } else {
                exchanges.add(contract.send(method, path, Map.of(), json(), "{}".getBytes(StandardCharsets.UTF_8)));
            }
        }
        // then
        List<String> mismatches = exchanges.stream().flatMap(e -> contract.mismatches(e).stream()).toList();
        assertThat(exchanges).hasSizeGreaterThan(60);
        assertThat(mismatches).isEmpty();
    }

    @Test
    void givenAnswersAndRequestsThatDifferFromTheDocument_whenValidated_thenEachMismatchIsReported() {
        // given: a real refusal, and the same with a problem body that lacks its status, and a body of the wrong type
        ApiContract.Exchange refused = contract.send("POST", "/new/v2.0/projects", Map.of(), json(),
                "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(contract.mismatches(refused)).isEmpty();
        ApiContract.Exchange noStatus = refused.answered(400, "application/problem+json",
                "{\"type\":\"Bad Request\",\"title\":\"Bad Request Error\"}".getBytes(StandardCharsets.UTF_8));
        ApiContract.Exchange wrongMedia = new ApiContract.Exchange("POST", "/new/v2.0/snapshots/upload", Map.of(),
                json(), "{}".getBytes(StandardCharsets.UTF_8), refused.status(), refused.responseHeaders(),
                refused.responseBody());
        // then
        assertThat(String.join("\n", contract.mismatches(noStatus))).contains("status");
        assertThat(String.join("\n", contract.mismatches(wrongMedia))).contains("request: Content-Type application/json is not one of [multipart/form-data]");
    }

    private Operation operation(String method, String path) {
        return contract.openApi().getPaths().get(path).readOperationsMap()
                .get(io.swagger.v3.oas.models.PathItem.HttpMethod.valueOf(method));
    }

    private static Map<String, String> json() {
        return Map.of("X-API-Key", ADMIN_KEY, "Accept", "application/json", "Content-Type", "application/json");
    }
}
