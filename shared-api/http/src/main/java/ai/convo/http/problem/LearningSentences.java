package ai.convo.http.problem;

import java.util.Map;
import org.springframework.http.HttpStatus;

/** The one answer to the official client's learning-sentence operations, from both services (see their routes). */
public final class LearningSentences {

    private LearningSentences() {
    }

    public static ApiProblem notAvailable() {
        return new ApiProblem(HttpStatus.NOT_IMPLEMENTED, "Learning sentences are learned by the NLU from live "
                + "conversations, and this server runs no conversations: there are none to list, read or delete. "
                + "Example sentences are at .../intents/{intentId}/sentences.",
                Map.of("learningSentences", "not available on this server"));
    }
}
