package ai.convo.http.audit;

/**
 * Where refused requests (401, 403) go, for the audit trail's 'unauthorized' events. Called while the response
 * commits, on the request's thread: an implementation must neither block nor throw.
 */
public interface RefusalLog {

    void refused(Refusal refusal);
}
