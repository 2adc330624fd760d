package ai.convo.http.problem;

import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * The official client's learning sentences, from both services (see their routes). The NLU learns them from live
 * conversations and this server runs none, so every list is empty and no id names one.
 */
public final class LearningSentences {

    private LearningSentences() {
    }

    public static ApiProblem notFound(String learningSentenceId) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "Learning sentence " + learningSentenceId + " does not exist. "
                + "Learning sentences are learned by the NLU from live conversations, and this server runs no "
                + "conversations, so it has none. Example sentences are at .../intents/{intentId}/sentences.",
                Map.of("learningSentenceId", "no learning sentence has this id"));
    }
}
