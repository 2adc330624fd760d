package ai.convo.contract.task;

/**
 * The spec's Task statuses. Moves: {@code queued -> active -> done | error} and
 * {@code queued | active -> cancelling -> cancelled}; {@code done, cancelled, error} are terminal.
 */
public enum TaskStatus {
    queued, active, done, cancelling, cancelled, error;

    public boolean terminal() {
        return this == done || this == cancelled || this == error;
    }
}
