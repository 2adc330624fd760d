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
