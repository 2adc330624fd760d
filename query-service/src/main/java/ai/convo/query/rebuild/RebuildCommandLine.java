package ai.convo.query.rebuild;

import ai.convo.contract.common.Ids;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A rebuild for a stopped system (the launcher's {@code rebuild} command): with {@code app.rebuild.now} set to
 * {@code all} or to projection names, the query service starts, lets its processors catch up, rebuilds those
 * projections exactly as the management API would, prints the outcome and exits (0 when switched).
 */
@Component
@ConditionalOnProperty("app.rebuild.now")
class RebuildCommandLine implements ApplicationRunner {

    private final JdbcTemplate jdbc;
    private final Rebuilder rebuilder;
    private final ConfigurableApplicationContext context;
    private final String requested;
    private final boolean requireIdentical;

    RebuildCommandLine(JdbcTemplate jdbc, Rebuilder rebuilder, ConfigurableApplicationContext context,
                       @Value("${app.rebuild.now}") String requested,
                       @Value("${app.rebuild.require-identical:false}") boolean requireIdentical) {
        this.jdbc = jdbc;
        this.rebuilder = rebuilder;
        this.context = context;
        this.requested = requested;
        this.requireIdentical = requireIdentical;
    }

    @Override
    public void run(ApplicationArguments args) {
        List<String> projections = requested.equals("all") ? List.copyOf(ReadModelTables.PROJECTIONS.keySet())
                : Arrays.stream(requested.split(",")).map(String::trim).toList();
        List<String> unknown = projections.stream().filter(p -> !ReadModelTables.PROJECTIONS.containsKey(p)).toList();
        int code;
        if (unknown.isEmpty()) {
            String id = Ids.newId();
            String runner = "command-line/" + id;
            // Claimed from the start for a day: the replica's own runner never takes it.
            jdbc.update("INSERT INTO projection_rebuild (id, projections, require_identical, runner, lease_until) "
                    + "VALUES (?, ?, ?, ?, now() + interval '1 day')", id, projections.toArray(String[]::new),
                    requireIdentical, runner);
            System.out.println("REBUILD " + id + " of " + projections + " started");
            long started = System.nanoTime();
            rebuilder.run(id, runner, () -> true);
            Map<String, Object> row = jdbc.queryForMap("SELECT status, events_done, identical, write_pause_ms, "
                    + "read_pause_ms, fail_reason FROM projection_rebuild WHERE id = ?", id);
            System.out.printf("REBUILD %s %s: %s events in %.1f s, identical to the live tables: %s%s%n", id,
                    row.get("status"), row.get("events_done"), (System.nanoTime() - started) / 1e9, row.get("identical"),
                    row.get("fail_reason") == null ? "" : " (" + row.get("fail_reason") + ")");
            code = "done".equals(row.get("status")) ? 0 : 1;
        } else {
            System.out.println("REBUILD refused: unknown projections " + unknown + "; known: "
                    + String.join(", ", ReadModelTables.PROJECTIONS.keySet()) + " (or all)");
            code = 2;
        }
        int exit = code;
        System.exit(SpringApplication.exit(context, () -> exit));
    }
}
