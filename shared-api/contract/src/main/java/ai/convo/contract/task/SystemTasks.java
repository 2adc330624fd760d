package ai.convo.contract.task;

/**
 * Tasks that belong to no project but to the system (e.g. rebuilding projections): they carry this reserved project
 * id, which no project ever has (ids are random), so they run one at a time like the tasks of one project, and only
 * a system administrator may create them.
 */
public final class SystemTasks {

    public static final String PROJECT_ID = "000000000000000000000000";

    private SystemTasks() {
    }
}
