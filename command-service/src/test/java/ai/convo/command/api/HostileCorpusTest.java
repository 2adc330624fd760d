package ai.convo.command.api;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.testing.HostileCorpus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/**
 * Every route of the command service, found in its handler mappings, gets malformed requests (HostileCorpus): no
 * 5xx, only problem bodies of the right status, no leak, nothing stored by a refusal. A short run here; a long one
 * with {@code -Dcorpus.perRoute=200 -Dcorpus.seed=...} (deploy/bench/hostile.sh).
 */
class HostileCorpusTest extends ApiTestBase {

    @Autowired
    List<RequestMappingHandlerMapping> mappings;

    @Test
    void givenEveryRoute_whenHostileRequestsArrive_thenNo5xxOnlyProblemBodiesNoLeakAndNothingStoredByARefusal() {
        // given: the route table, read from the running service
        List<HostileCorpus.Route> routes = mappings.stream().flatMap(m -> HostileCorpus.routes(m).stream())
                .distinct().toList();
        assertThat(routes).hasSizeGreaterThan(60);
        List<HostileCorpus.Probe> probes = HostileCorpus.probes(routes, Long.getLong("corpus.seed", 20261126L),
                Integer.getInteger("corpus.perRoute", 4), "", Map.of("X-API-Key", ADMIN_KEY));
        String dump = System.getProperty("corpus.dump");
        if (dump != null) {
            // the same requests for deploy/bench/keepalive-hang.py, with the key left for it to fill in
            HostileCorpus.dump(HostileCorpus.probes(routes, Long.getLong("corpus.seed", 20261126L),
                    Integer.getInteger("corpus.perRoute", 4), "", Map.of("X-API-Key", "API_KEY")), java.nio.file.Path.of(dump));
        }
        // when
        HostileCorpus.Tally tally = HostileCorpus.run(probes,
                Integer.parseInt(environment.getProperty("local.server.port")), this::eventCount);
        // then
        System.out.println(tally.summary("command service (" + routes.size() + " routes)"));
        tally.findings.forEach(f -> System.out.println("FINDING " + f));
        assertThat(tally.requests).isEqualTo(probes.size());
        assertThat(tally.findings).isEmpty();
    }
}
