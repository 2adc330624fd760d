package ai.convo.contract.identity;

/** What a user may do. Stored by name in events: never rename a constant. */
public enum Role {
    SYSTEM_ADMIN, ORG_ADMIN, MEMBER
}
