package ai.convo.persistence;

/**
 * The keys writes are recorded under for read-your-writes ({@code principal_write}, V5): a user id for what that
 * user reads, and a public key for what a public route shows to everyone.
 */
public final class PrincipalKeys {

    /** GET /v2.0/system/message is public: every reader waits for the newest system message written. */
    public static final String SYSTEM_MESSAGE = "public:system-message";

    private PrincipalKeys() {
    }
}
