package ai.convo.contract.voiceassistant;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The external voice-assistant platforms an account can be linked to, by their path segment. Events store the code. */
public enum VoiceAssistant {
    ALEXA("alexa");

    private final String code;

    VoiceAssistant(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** Exact, case-sensitive match on the path segment. */
    public static Optional<VoiceAssistant> fromCode(String code) {
        return Arrays.stream(values()).filter(v -> v.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(VoiceAssistant::code).toList();
    }
}
