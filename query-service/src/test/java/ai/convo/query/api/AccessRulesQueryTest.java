package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.common.Ids;
import ai.convo.http.access.AccessPolicy;
import ai.convo.testing.HostileCorpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * The access policy against the query service's route table: every route has a rule; what spans the organisation is
 * refused to a member without the role (403 naming it); every project route answers a non-member the 404 of a
 * project that does not exist, and serves a member with only the basic role.
 */
class AccessRulesQueryTest extends QueryTestBase {

    private static final List<String> UNRULED = List.of("GET /health", "GET /health/ready", "GET /openapi.json",
            "GET /v2.0/system/message", "GET /management/v2.0/projections", "GET /management/v2.0/projections/digest",
            "GET /management/v2.0/projections/deadletters",
            "GET /management/v2.0/projections/deadletters/requests/{requestId}",
            "GET /management/v2.0/projections/rebuilds/{rebuildId}");
    private static final Pattern VARIABLE = Pattern.compile("\\{([A-Za-z]+)}");

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    private final AccessPolicy policy = new AccessPolicy("/new");

    List<String> routes() {
        return new ArrayList<>(new TreeSet<>(mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .filter(r -> r.method().equals("GET"))
                .map(r -> r.method() + " " + r.pattern().replaceFirst("^/new", "")).toList()));
    }

    @Test
    void givenTheRouteTable_whenEachRouteIsMatched_thenEveryOneHasItsOwnRule() {
        // given
        List<String> routes = routes();
        // then
        assertThat(routes).hasSizeGreaterThan(40);
        assertThat(routes.stream().filter(route -> !UNRULED.contains(route)).filter(route -> {
            String path = route.substring(4);
            AccessPolicy.Match match = policy.match(HttpMethod.GET, "/new" + VARIABLE.matcher(path)
                    .replaceAll(m -> m.group(1).equals("voiceAssistant") ? "alexa" : "aaaaaaaaaaaaaaaaaaaaaaaa"));
            return match == null || !match.rule().path().equals(path);
        })).isEmpty();
    }

    @Test
    void givenAMemberWithoutOrganisationRoles_whenReadingWhatSpansTheOrganisation_thenA403NamingTheRole() {
        // given
        Caller admin = newOrganisation();
        Caller member = colleague(admin, "MEMBER");
        List<AccessPolicy.Rule> organisationWide = policy.rules().stream()
                .filter(r -> r.scope() == AccessPolicy.Scope.ORGANISATION && r.method() == HttpMethod.GET).toList();
        assertThat(organisationWide).hasSizeGreaterThanOrEqualTo(5);
        // when / then
        for (AccessPolicy.Rule rule : organisationWide) {
            String uri = VARIABLE.matcher(rule.path()).replaceAll(m -> Ids.newId());
            http.get().uri(uri).header("X-API-Key", member.apiKey()).exchange().expectStatus().isForbidden()
                    .expectBody().jsonPath("$.details.requiredRoles[0]")
                    .isEqualTo(rule.roles().isEmpty() ? "admin" : rule.roles().iterator().next());
        }
    }

    @Test
    void givenEveryProjectReadRoute_whenANonMemberOrABasicMemberReads_thenA404ForOneAndNoRefusalForTheOther() {
        // given: a project with a flow, and a basic member and a non-member
        Caller admin = newOrganisation();
        Project project = project(admin, "Readable", 1);
        String flowId = Ids.newId();
        Caller basic = colleague(admin, "MEMBER");
        // recorded as the basic member's write, so their reads wait until it is projected
        as(basic, () -> append(flowId, new ai.convo.contract.flow.FlowCreatedEvent(flowId, project.id(),
                admin.organisationId(), java.util.UUID.randomUUID().toString(), "Main", "", admin.userId(), 1)));
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                + "VALUES (?, ?, ?, '{basic}', ?, 0)", project.id(), basic.userId(), admin.organisationId(),
                admin.userId());
        Caller outsider = colleague(admin, "MEMBER");
        Map<String, String> ids = Map.of("projectId", project.id(), "localeId", project.primaryLocaleId(),
                "flowId", flowId);
        List<String> findings = new ArrayList<>();
        // when
        for (AccessPolicy.Rule rule : policy.rules()) {
            if (rule.scope() != AccessPolicy.Scope.PROJECT || rule.kind() != AccessPolicy.Kind.READ
                    || !routes().contains("GET " + rule.path()) || !ids.containsKey(rule.projectFrom().replace(
                    "query:", ""))) {
                continue;
            }
            String uri = VARIABLE.matcher(rule.path()).replaceAll(m -> ids.getOrDefault(m.group(1), Ids.newId()))
                    + (rule.projectFrom().startsWith("query:") ? "?projectId=" + project.id() : "");
            int outsiderStatus = http.get().uri(uri).header("X-API-Key", outsider.apiKey()).exchange()
                    .returnResult(String.class).getStatus().value();
            int basicStatus = http.get().uri(uri).header("X-API-Key", basic.apiKey()).exchange()
                    .returnResult(String.class).getStatus().value();
            // then
            if (outsiderStatus != 404 || basicStatus == 403) {
                findings.add(uri + ": non-member " + outsiderStatus + ", basic member " + basicStatus);
            }
        }
        assertThat(findings).isEmpty();
        http.get().uri("/v2.0/flows/{id}", flowId).header("X-API-Key", basic.apiKey()).exchange()
                .expectStatus().isOk();
        // the project list shows a member their projects only
        http.get().uri("/v2.0/projects").header("X-API-Key", basic.apiKey()).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(1).jsonPath("$.items[0]._id").isEqualTo(project.id());
        http.get().uri("/v2.0/projects").header("X-API-Key", outsider.apiKey()).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.total").isEqualTo(0);
    }

    @Test
    void givenAMemberOfProjectA_whenListingWithoutProjectId_thenAsAndNoneOfBsAndAnAdministratorSeesBoth() {
        // given: projects A and B with a flow each, B with a second locale; a basic member of A only
        Caller admin = newOrganisation();
        Project a = project(admin, "A", 1);
        Project b = project(admin, "B", 1);
        locale(admin, b.id(), Ids.newId(), "German", "de-DE", 2);
        String flowA = Ids.newId();
        String flowB = Ids.newId();
        append(flowA, new ai.convo.contract.flow.FlowCreatedEvent(flowA, a.id(), admin.organisationId(),
                java.util.UUID.randomUUID().toString(), "Main A", "", admin.userId(), 3));
        long position = append(flowB, new ai.convo.contract.flow.FlowCreatedEvent(flowB, b.id(),
                admin.organisationId(), java.util.UUID.randomUUID().toString(), "Main B", "", admin.userId(), 3));
        Caller member = colleague(admin, "MEMBER");
        Caller outsider = colleague(admin, "MEMBER");
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                + "VALUES (?, ?, ?, '{basic}', ?, 0)", a.id(), member.userId(), admin.organisationId(),
                admin.userId());
        // when / then: the member sees A's flow and locale only; the administrator sees both projects'
        list("/v2.0/flows", member, position).jsonPath("$.total").isEqualTo(1)
                .jsonPath("$.items[0]._id").isEqualTo(flowA);
        list("/v2.0/flows", admin, position).jsonPath("$.total").isEqualTo(2);
        list("/v2.0/locales", member, position).jsonPath("$.total").isEqualTo(1)
                .jsonPath("$.items[0]._id").isEqualTo(a.primaryLocaleId());
        list("/v2.0/locales", admin, position).jsonPath("$.total").isEqualTo(3);
        // and every list across projects answers a member of none an empty page, not a 400
        for (String uri : List.of("/v2.0/flows", "/v2.0/locales", "/v2.0/functions", "/v2.0/knowledgestores",
                "/v2.0/snapshots", "/v2.0/tasks")) {
            list(uri, outsider, position).jsonPath("$.total").isEqualTo(0);
            list(uri, member, position).jsonPath("$.total").exists();
        }
        // a cursor of the member's list is no cursor of the administrator's
        Object next = http.get().uri("/v2.0/flows?limit=1").header("X-API-Key", admin.apiKey()).exchange()
                .expectStatus().isOk().expectBody(Map.class).returnResult().getResponseBody().get("nextCursor");
        assertThat(next).isNotNull();
        http.get().uri("/v2.0/flows?limit=1&next=" + next).header("X-API-Key", member.apiKey()).exchange()
                .expectStatus().isBadRequest();
    }

    org.springframework.test.web.reactive.server.WebTestClient.BodyContentSpec list(String uri, Caller caller,
                                                                                   long position) {
        return http.get().uri(uri).header("X-API-Key", caller.apiKey())
                .header("X-Event-Position", Long.toString(position)).exchange().expectStatus().isOk().expectBody();
    }

    @Test
    void givenAMemberWithTheBasicRole_whenHostileRequestsArriveOnEveryRoute_thenNo5xx() {
        // given: the hostile corpus, sent by a member of one project instead of an administrator
        Caller admin = newOrganisation();
        Project project = project(admin, "Hostile", 1);
        Caller member = colleague(admin, "MEMBER");
        jdbc.update("INSERT INTO identity_member (project_id, user_id, organisation_id, roles, added_by, added_at) "
                + "VALUES (?, ?, ?, '{basic}', ?, 0)", project.id(), member.userId(), admin.organisationId(),
                admin.userId());
        List<HostileCorpus.Route> routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .distinct().toList();
        List<HostileCorpus.Probe> probes = HostileCorpus.probes(routes, 20261128L, 4, "",
                Map.of("X-API-Key", member.apiKey()));
        // when
        HostileCorpus.Tally tally = HostileCorpus.run(probes,
                Integer.parseInt(environment.getProperty("local.server.port")),
                () -> jdbc.queryForObject("SELECT count(*) FROM domain_event_entry", Long.class));
        // then
        tally.findings.forEach(f -> System.out.println("FINDING " + f));
        assertThat(tally.requests).isEqualTo(probes.size());
        assertThat(tally.findings).isEmpty();
    }
}
