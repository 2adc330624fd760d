package ai.convo.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.HostileCorpus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * Every route of the query service, found in its handler mappings, gets malformed requests (HostileCorpus): no
 * 5xx, only problem bodies of the right status, no leak, nothing stored by a refusal. A short run here; a long one
 * with {@code -Dcorpus.perRoute=200 -Dcorpus.seed=...} (deploy/bench/hostile.sh).
 */
class HostileCorpusTest extends QueryTestBase {

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    @Test
    void givenEveryRoute_whenHostileRequestsArrive_thenNo5xxOnlyProblemBodiesNoLeakAndNothingStoredByARefusal() {
        // given: the route table, read from the running service, and a caller of an organisation of its own
        Caller caller = newOrganisation();
        List<HostileCorpus.Route> routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .distinct().toList();
        assertThat(routes).hasSizeGreaterThan(50);
        List<HostileCorpus.Probe> probes = HostileCorpus.probes(routes, Long.getLong("corpus.seed", 20261126L),
                Integer.getInteger("corpus.perRoute", 4), "", Map.of("X-API-Key", caller.apiKey()));
        // when
        HostileCorpus.Tally tally = HostileCorpus.run(probes,
                Integer.parseInt(environment.getProperty("local.server.port")),
                () -> jdbc.queryForObject("SELECT count(*) FROM domain_event_entry", Long.class));
        // then
        System.out.println(tally.summary("query service (" + routes.size() + " routes)"));
        tally.findings.forEach(f -> System.out.println("FINDING " + f));
        assertThat(tally.requests).isEqualTo(probes.size());
        assertThat(tally.findings).isEmpty();
    }
}
