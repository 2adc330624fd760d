package ai.convo.contract.yesno;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The three intents every locale has for yes/no questions; {@link #wire} is the client's name and the model's label. */
public enum YesNoKind {
    YES("yes"), NO("no"), REJECT("reject");

    public static final List<String> WIRE = Arrays.stream(values()).map(YesNoKind::wire).toList();

    private final String wire;

    YesNoKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<YesNoKind> parse(String wire) {
        return Arrays.stream(values()).filter(k -> k.wire.equals(wire)).findFirst();
    }
}
