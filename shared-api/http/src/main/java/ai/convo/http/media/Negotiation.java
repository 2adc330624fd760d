package ai.convo.http.media;

import ai.convo.http.problem.ApiProblem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.server.ServerWebExchange;

/**
 * Chooses the representation from the Accept header. Done before any work, so a request that cannot be
 * answered in an acceptable form is refused (406) before anything is stored.
 */
public final class Negotiation {

    public static final String ALLOWED =
            "application/json, application/hal+json, application/xml, text/xml, text/csv";
    private static final String ATTRIBUTE = Negotiation.class.getName();

    private Negotiation() {
    }

    /**
     * The most media types of an Accept header that are read. Spring refuses longer lists with an exception nothing
     * answers (MimeTypeUtils.sortBySpecificity, when it writes a body), after the handler did its work.
     */
    public static final int MAX_MEDIA_TYPES = 50;

    /**
     * Refuses (406, as every Accept this server cannot honour) an Accept of more than {@link #MAX_MEDIA_TYPES} media
     * types, on every route before any work (EagerFirewall). Parsed only when its commas allow that many.
     */
    public static void refuseOversized(HttpHeaders headers) {
        List<String> values = headers.get(HttpHeaders.ACCEPT);
        if (values == null) {
            return;
        }
        int most = 0;
        for (String value : values) {
            most += 1 + (int) value.chars().filter(c -> c == ',').count();
        }
        if (most <= MAX_MEDIA_TYPES) {
            return;
        }
        int count;
        try {
            count = MediaType.parseMediaTypes(values).size();
        } catch (InvalidMediaTypeException e) {
            // not a media type list at all: negotiation answers the same 406 for it
            return;
        }
        if (count > MAX_MEDIA_TYPES) {
            throw notAcceptable("The Accept header lists " + count + " media types; at most " + MAX_MEDIA_TYPES
                    + " are read. Ask for one of: " + ALLOWED + ".");
        }
    }

    public static ApiMedia negotiate(ServerWebExchange exchange, ApiMedia operationDefault) {
        ApiMedia chosen = choose(exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT), operationDefault);
        exchange.getAttributes().put(ATTRIBUTE, chosen);
        return chosen;
    }

    /** What negotiation chose for this exchange, if it ran; problem bodies follow it where they can. */
    public static ApiMedia chosen(ServerWebExchange exchange) {
        return exchange.getAttribute(ATTRIBUTE);
    }

    static ApiMedia choose(String accept, ApiMedia operationDefault) {
        if (accept == null || accept.isBlank()) {
            return operationDefault;
        }
        List<MediaType> accepted;
        try {
            accepted = new ArrayList<>(MediaType.parseMediaTypes(accept));
        } catch (InvalidMediaTypeException e) {
            throw notAcceptable("The Accept header '" + abbreviate(accept) + "' is not a valid media type list.");
        }
        // Highest quality first; the sort is stable, so equal qualities keep the client's order.
        accepted.sort(Comparator.comparingDouble(MediaType::getQualityValue).reversed());
        for (MediaType candidate : accepted) {
            if (candidate.getQualityValue() <= 0) {
                continue;
            }
            ApiMedia match = match(candidate, operationDefault);
            if (match != null) {
                return match;
            }
        }
        throw notAcceptable("None of the media types in Accept '" + abbreviate(accept)
                + "' can be produced. Allowed: " + ALLOWED + ".");
    }

    private static ApiMedia match(MediaType candidate, ApiMedia operationDefault) {
        if (candidate.isWildcardType()) {
            return operationDefault;
        }
        if (candidate.isWildcardSubtype()) {
            if (operationDefault.type().getType().equals(candidate.getType())) {
                return operationDefault;
            }
            return switch (candidate.getType()) {
                case "application" -> ApiMedia.JSON;
                case "text" -> ApiMedia.TEXT_XML;
                default -> null;
            };
        }
        for (ApiMedia media : ApiMedia.values()) {
            if (media.type().getType().equalsIgnoreCase(candidate.getType())
                    && media.type().getSubtype().equalsIgnoreCase(candidate.getSubtype())) {
                return media;
            }
        }
        return null;
    }

    private static ApiProblem notAcceptable(String detail) {
        return new ApiProblem(HttpStatus.NOT_ACCEPTABLE, detail, Map.of("allowed", List.of(ALLOWED.split(", "))));
    }

    private static String abbreviate(String value) {
        return value.length() > 100 ? value.substring(0, 100) + "..." : value;
    }
}
