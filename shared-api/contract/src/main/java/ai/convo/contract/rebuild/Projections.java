package ai.convo.contract.rebuild;

import java.util.List;

/** The query service's projections (its processing groups), by the names an operator rebuilds them with. */
public final class Projections {

    public static final List<String> NAMES = List.of("projects", "locales", "tokens", "functions", "function-instances", "flows", "states",
            "intents", "knowledge", "snapshots", "tasks", "system-messages", "voice-assistant-links", "login-attempts", "callcounter",
            "eventlog");

    /** The task type of a rebuild. */
    public static final String REBUILD_TASK = "rebuildProjections";

    private Projections() {
    }
}
