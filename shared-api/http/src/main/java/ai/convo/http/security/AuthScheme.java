package ai.convo.http.security;

/** The five authentication schemes of the specification, in the order credentials are looked for. */
public enum AuthScheme {
    API_KEY_HEADER("the X-API-Key header"),
    API_KEY_QUERY("the api_key query parameter"),
    CONTACT_CENTER("an x-contactcenter-authorization Bearer token"),
    BASIC("HTTP Basic authentication"),
    BEARER("an Authorization Bearer access token");

    private final String description;

    AuthScheme(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
