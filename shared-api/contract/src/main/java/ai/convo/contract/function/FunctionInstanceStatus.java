package ai.convo.contract.function;

/** The vendor's instance statuses: {@code queued -> active -> done | error}; a stopped instance is {@code error}. */
public enum FunctionInstanceStatus {
    queued, active, done, error;

    public boolean terminal() {
        return this == done || this == error;
    }
}
