package ai.convo.command.flow;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Reads {@code cmd_intent_lookup}, which the intents feature keeps in the same transaction as its events. */
@Component
class JdbcFlowIntents implements FlowIntents {

    private final JdbcTemplate jdbc;

    JdbcFlowIntents(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Set<String> ofFlow(String flowId, Collection<String> intentIds) {
        if (intentIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.queryForList(
                "SELECT intent_id FROM cmd_intent_lookup WHERE flow_id = ? AND intent_id = ANY (?)",
                String.class, flowId, intentIds.toArray(String[]::new)));
    }
}
