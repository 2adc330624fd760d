package ai.convo.command.task;

import ai.convo.contract.task.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;

/**
 * The runners' statements on {@code task_run}: claim, renew, look, give back. Each runs in its own short transaction
 * (auto-commit), never inside a command's.
 */
@Component
class TaskRuns {

    /** A claimed row: what the runner needs to start, resume or end the task. */
    record Claim(String taskId, String projectId, String organisationId, String type, TaskStatus status, int attempts,
                 Map<String, Object> parameters, String createdBy, String creatorRole) {
    }

    record State(TaskStatus status, int attempts, String runnerId) {
    }

    private static final String OPEN = "('queued', 'active', 'cancelling')";
    /**
     * Which tasks a claim may take. Long-running types (a function run: minutes of waiting on HTTP) have a lane of
     * their own, so they never hold the threads other tasks need, and at most {@code perOrganisation} of one
     * organisation's run at once (over all replicas). They neither wait for nor hold up their project's other tasks:
     * they change no project state.
     */
    record Lane(Set<String> longRunningTypes, boolean longRunning, int perOrganisation,
                Set<String> onePerOrganisationTypes) {
        static final Lane ALL = new Lane(Set.of(), false, Integer.MAX_VALUE);

        Lane {
            for (String type : longRunningTypes) {
                checked(type);
            }
            for (String type : onePerOrganisationTypes) {
                checked(type);
            }
            longRunningTypes = Set.copyOf(longRunningTypes);
            onePerOrganisationTypes = Set.copyOf(onePerOrganisationTypes);
        }

        Lane(Set<String> longRunningTypes, boolean longRunning, int perOrganisation) {
            this(longRunningTypes, longRunning, perOrganisation, Set.of());
        }

        private static void checked(String type) {
            if (!type.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("task type not usable in a claim: " + type);
            }
        }

        /** The long-running types as an SQL list; types are checked above, so they can be inlined. */
        String list() {
            return list(longRunningTypes);
        }

        private static String list(Set<String> types) {
            return types.isEmpty() ? "('')" : types.stream().sorted()
                    .map(t -> "'" + t + "'").collect(java.util.stream.Collectors.joining(", ", "(", ")"));
        }

        /**
         * Leaves out a task of a one-per-organisation type while its organisation has one of them leased (running);
         * empty without such types.
         */
        String onePerOrganisation() {
            if (onePerOrganisationTypes.isEmpty()) {
                return "";
            }
            String types = list(onePerOrganisationTypes);
            return " AND NOT (h.type IN " + types + " AND h.status <> 'cancelling' AND EXISTS (SELECT 1 FROM task_run o "
                    + "WHERE o.organisation_id = h.organisation_id AND o.type IN " + types + " AND o.status IN " + OPEN
                    + " AND o.lease_until >= now()))";
        }
    }

    /**
     * The oldest claimable task of the lane, locked so no other runner takes it: the first unfinished task of its
     * project (so tasks of a project start in order and never overlap; long-running ones aside) whose lease is free
     * or expired (its runner died), or a task cancelled before it ever started (it will not run, so it waits for
     * nobody).
     */
    private static String claim(Lane lane) {
        String longTypes = lane.list();
        String inLane = lane.longRunning() ? "h.type IN " + longTypes
                + " AND (SELECT count(*) FROM task_run a WHERE a.organisation_id = h.organisation_id AND a.type IN "
                + longTypes + " AND a.status IN " + OPEN + " AND a.lease_until >= now()) < " + lane.perOrganisation()
                : "h.type NOT IN " + longTypes;
        return "UPDATE task_run r SET runner_id = ?, lease_until = now() + ? * interval '1 millisecond' "
                + "WHERE r.task_id = (SELECT h.task_id FROM task_run h "
                + "  WHERE h.status IN " + OPEN + " AND (h.lease_until IS NULL OR h.lease_until < now()) AND " + inLane
                + lane.onePerOrganisation()
                + "  AND ((h.status = 'cancelling' AND h.attempts = 0) OR h.type IN " + longTypes
                + "    OR NOT EXISTS (SELECT 1 FROM task_run e WHERE e.project_id = h.project_id AND e.status IN " + OPEN
                + "       AND e.seq < h.seq AND e.type NOT IN " + longTypes + ")) "
                // the organisation with the fewest tasks running goes first: one with many projects does not take every
                // runner while another's task waits behind all of its own
                + "  ORDER BY (SELECT count(*) FROM task_run a WHERE a.organisation_id = h.organisation_id "
                + "    AND a.status IN " + OPEN + " AND a.lease_until >= now()), h.seq LIMIT 1 FOR UPDATE SKIP LOCKED) "
                + "RETURNING r.task_id, r.project_id, r.organisation_id, r.type, r.status, r.attempts, r.parameters, "
                + "r.created_by, r.creator_role";
    }

    private final java.util.Map<Lane, String> claims = new java.util.concurrent.ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;

    TaskRuns(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Optional<Claim> claim(String runnerId, long leaseMillis) {
        return claim(runnerId, leaseMillis, Lane.ALL);
    }

    Optional<Claim> claim(String runnerId, long leaseMillis, Lane lane) {
        List<Claim> claimed = jdbc.query(claims.computeIfAbsent(lane, TaskRuns::claim), (rs, i) -> new Claim(rs.getString("task_id"), rs.getString("project_id"),
                rs.getString("organisation_id"), rs.getString("type"), TaskStatus.valueOf(rs.getString("status")),
                rs.getInt("attempts"), parameters(rs.getString("parameters")), rs.getString("created_by"),
                rs.getString("creator_role")), runnerId, leaseMillis);
        return claimed.stream().findFirst();
    }

    /** Extends this runner's lease; empty when the runner no longer holds the task (it ended or was taken over). */
    Optional<State> renew(String taskId, String runnerId, long leaseMillis) {
        return jdbc.query("UPDATE task_run SET lease_until = now() + ? * interval '1 millisecond' "
                        + "WHERE task_id = ? AND runner_id = ? AND status IN " + OPEN + " RETURNING status, attempts, runner_id",
                (rs, i) -> state(rs), leaseMillis, taskId, runnerId).stream().findFirst();
    }

    Optional<State> stateOf(String taskId) {
        return jdbc.query("SELECT status, attempts, runner_id FROM task_run WHERE task_id = ?", (rs, i) -> state(rs),
                taskId).stream().findFirst();
    }

    /** Unfinished tasks: {without a live lease (waiting for a runner), with one (a runner holds it)}. */
    long[] openCounts() {
        return jdbc.queryForObject("SELECT count(*) FILTER (WHERE lease_until IS NULL OR lease_until < now()), "
                + "count(*) FILTER (WHERE lease_until >= now()) FROM task_run WHERE status IN " + OPEN,
                (rs, i) -> new long[] {rs.getLong(1), rs.getLong(2)});
    }

    /** Gives back the leases of a runner that stops in good order, so another runner need not wait for them to expire. */
    int release(String runnerId) {
        return jdbc.update("UPDATE task_run SET lease_until = now() WHERE runner_id = ? AND status IN " + OPEN, runnerId);
    }

    private static State state(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new State(TaskStatus.valueOf(rs.getString("status")), rs.getInt("attempts"), rs.getString("runner_id"));
    }

    private static Map<String, Object> parameters(String json) {
        return TaskRunLookup.JSON.readValue(json, new TypeReference<Map<String, Object>>() { });
    }
}
