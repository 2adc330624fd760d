package ai.convo.http.media;

import org.springframework.http.MediaType;

/** The five representations every operation offers. */
public enum ApiMedia {
    JSON(MediaType.APPLICATION_JSON),
    HAL(MediaType.parseMediaType("application/hal+json")),
    XML(MediaType.APPLICATION_XML),
    TEXT_XML(MediaType.TEXT_XML),
    CSV(MediaType.parseMediaType("text/csv"));

    private final MediaType type;

    ApiMedia(MediaType type) {
        this.type = type;
    }

    public MediaType type() {
        return type;
    }

    public boolean isXml() {
        return this == XML || this == TEXT_XML;
    }

    public MediaType contentType() {
        return this == CSV || this == TEXT_XML
                ? new MediaType(type, java.nio.charset.StandardCharsets.UTF_8)
                : type;
    }
}
