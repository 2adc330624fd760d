package ai.convo.command.task;

/**
 * One kind of background work that a Task runs (e.g. {@code createSnapshot}, {@code restoreSnapshot}). The task
 * runner finds the implementation by {@link #type()} among the Spring beans and calls {@link #run} on exactly one
 * runner at a time. A run may be repeated from the start when an earlier runner died, so work must be
 * all-or-nothing or idempotent.
 */
public interface TaskWork {

    /** The Task {@code type} this work handles, as stored in the task and shown by the API. */
    String type();

    /**
     * Does the work. Returning normally ends the task {@code done}. Throwing {@link TaskCancelledException}
     * (which {@link TaskContext#stepDone} throws once a cancel was requested) ends it {@code cancelled}, and the
     * work must then have left nothing changed. Any other exception ends it {@code error}; the message of a
     * {@link TaskFailedException} becomes {@code failReason}, other exceptions give a generic reason.
     */
    void run(TaskContext context) throws Exception;

    /**
     * Work that may take minutes of waiting (a function run) runs in a lane of its own, with its own threads and a
     * limit per organisation, so it never holds the threads other tasks need.
     */
    default boolean longRunning() {
        return false;
    }

    /**
     * At most one task of such a type runs per organisation at a time (over all replicas): the organisation's others
     * wait in the queue, holding no runner thread, while another organisation's task of the type is claimed (e.g.
     * document ingestion, which reads one document per organisation at a time anyway).
     */
    default boolean onePerOrganisation() {
        return false;
    }

    /**
     * The runner gave the task up without running it again ({@code reason} says why, e.g. its runners kept dying):
     * work that keeps state of its own outside the task ends it here. Nothing by default.
     */
    default void givenUp(String taskId, java.util.Map<String, Object> parameters, String reason) {
    }
}
