package ai.convo.contract.identity;

import ai.convo.contract.common.Actor;
import java.util.List;

/** passwordHash: a slow hash of the new user's password, or null for a user who cannot sign in by password yet. */
public record CreateUserCommand(UserId userId, Actor actor, String email, String name, List<String> roles,
                                String passwordHash, long at) {
    @Override
    public String toString() {
        return "CreateUserCommand[" + userId + ", " + email + "]"; // never the hash
    }
}
