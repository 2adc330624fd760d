package ai.convo.http.audit;

/**
 * One refused request. Never a credential: of an API key or token only its scheme is known, of Basic credentials
 * only the e-mail. Who is known as far as the request got: the principal of a 403, the user of a Basic e-mail.
 * Text is clipped to the sizes of refused_request's columns, so a hostile header cannot make a large entry.
 */
public record Refusal(String organisationId, String userId, String email, String method, String path, int status,
                      String scheme, String remoteAddress, long occurredAtMillis) {

    static final int MAX_EMAIL = 320;
    static final int MAX_METHOD = 10;
    static final int MAX_PATH = 2000;
    static final int MAX_SCHEME = 30;
    static final int MAX_ADDRESS = 64;

    public Refusal {
        email = clip(email, MAX_EMAIL);
        method = clip(method, MAX_METHOD);
        path = clip(path, MAX_PATH);
        scheme = clip(scheme, MAX_SCHEME);
        remoteAddress = clip(remoteAddress, MAX_ADDRESS);
    }

    private static String clip(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
