package ai.convo.edge;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The problem body (RFC 7807 in the specification's shape) where there is no JSON library at hand: the gateway's
 * own errors and Netty's refusals. The services write the same shape through their ProblemWriter.
 */
public final class ProblemJson {

    private static final SecureRandom RANDOM = new SecureRandom();

    private ProblemJson() {
    }

    /** A trace id: 32 lowercase hex characters. */
    public static String newTraceId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * {@code type}, {@code title} from the reason phrase; code "1000" (the specification's code for other errors);
     * {@code instance}: the request's path, as the services' problems have it.
     */
    public static byte[] body(int status, String reason, String detail, String instance, String traceId) {
        return ("{\"type\":" + json(reason)
                + ",\"title\":" + json(reason + " Error")
                + ",\"status\":" + status
                + ",\"detail\":" + json(detail)
                + ",\"instance\":" + json(instance)
                + ",\"code\":\"1000\",\"traceId\":\"" + traceId + "\",\"details\":{}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A JSON string literal. */
    public static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
