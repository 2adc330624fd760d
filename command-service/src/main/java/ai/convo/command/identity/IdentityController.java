package ai.convo.command.identity;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.identity.ApiKeyId;
import ai.convo.contract.identity.CreateOrganisationCommand;
import ai.convo.contract.identity.IssueApiKeyCommand;
import ai.convo.contract.identity.OrganisationId;
import ai.convo.contract.identity.ResetFailedLoginAttemptsCommand;
import ai.convo.contract.identity.RevokeApiKeyCommand;
import ai.convo.contract.identity.Role;
import ai.convo.contract.identity.UserId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.Secrets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

@RestController
class IdentityController {

    static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

    private final Commands commands;

    public IdentityController(Commands commands) {
        this.commands = commands;
    }

    /** System administrators create organisations, each with its first (admin) user. */
    @PostMapping("/management/v2.0/organisations")
    public Mono<ResponseEntity<byte[]>> createOrganisation(ServerWebExchange exchange,
                                                           @AuthenticationPrincipal ApiPrincipal caller,
                                                           @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        if (!caller.isSystemAdmin()) {
            throw DomainException.forbidden("Only a system administrator can create organisations.");
        }
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("name", "adminEmail", "adminPassword"));
        String name = body.requiredString("name", 1, 200);
        String email = body.requiredString("adminEmail", 3, 254);
        String password = body.requiredString("adminPassword", 8, 200);
        body.validate();
        String normalised = email.trim().toLowerCase(Locale.ROOT);
        if (!EMAIL.matcher(normalised).matches()) {
            throw DomainException.invalid("adminEmail", "adminEmail must be an email address like name@example.com.");
        }
        OrganisationId organisationId = OrganisationId.generate();
        UserId adminId = UserId.generate();
        long now = Clock.nowSeconds();
        return commands.blocking(() -> Secrets.PASSWORDS.encode(password))
                .flatMap(hash -> commands.send(new CreateOrganisationCommand(organisationId, name, adminId, normalised,
                        hash, Role.ORG_ADMIN, caller.userId(), now), organisationId.value(), adminId.value()))
                .map(sent -> {
                    Map<String, Object> record = new LinkedHashMap<>();
                    record.put("_id", organisationId.value());
                    record.put("name", name);
                    record.put("createdAt", now);
                    record.put("createdBy", caller.userId());
                    record.put("admin", Map.of("_id", adminId.value(), "email", normalised, "role", "ORG_ADMIN"));
                    return ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                            new Representation.Single("organisation", record),
                            exchange.getRequest().getPath().value() + "/" + organisationId.value(), sent.position());
                });
    }

    /** Issues a key to the caller. The secret is in this response only; the server keeps its hash. */
    @PostMapping("/v2.0/users/me/apikeys")
    public Mono<ResponseEntity<byte[]>> issueKey(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                 @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        // The official client names the key "name" (IApiKey_2_0); "label" is this server's older name for it.
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(Set.of("name", "label"));
        String name = body.optionalString("name", 1, 100);
        String given = body.optionalString("label", 1, 100);
        body.validate(name != null && given != null && !name.equals(given)
                ? Map.of("name", "and label are one field (label is its older name); give one of them, or the same value")
                : Map.of());
        String label = name != null ? name : given;
        String secret = Secrets.newApiKey();
        ApiKeyId keyId = ApiKeyId.generate();
        long now = Clock.nowSeconds();
        String shownLabel = label == null ? "API key" : label;
        return commands.send(new IssueApiKeyCommand(UserId.of(caller.userId()), keyId, caller.organisationId(),
                        shownLabel, Secrets.hashApiKey(secret), now), caller.userId())
                .map(sent -> {
                    Map<String, Object> record = new LinkedHashMap<>();
                    record.put("_id", keyId.value());
                    record.put("name", shownLabel);
                    record.put("apiKey", secret);
                    record.put("label", shownLabel);
                    record.put("key", secret);
                    record.put("createdAt", now);
                    return ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                            new Representation.Single("apiKey", record),
                            exchange.getRequest().getPath().value() + "/" + keyId.value(), sent.position());
                });
    }

    @DeleteMapping("/v2.0/users/me/apikeys/{apiKeyId}")
    public Mono<ResponseEntity<byte[]>> revokeKey(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                  @PathVariable String apiKeyId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("apiKeyId", apiKeyId);
        return commands.send(new RevokeApiKeyCommand(UserId.of(caller.userId()), ApiKeyId.of(apiKeyId),
                        caller.organisationId(), Clock.nowSeconds()), caller.userId())
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    /**
     * The official client's resetFailedLoginAttempts: an administrator of the user's organisation (or a system
     * administrator) forgets the user's failed password sign-ins, which lifts a lock. Answers {}.
     */
    @PostMapping("/v2.0/users/{userId}/resetfailedloginattempts")
    public Mono<ResponseEntity<byte[]>> resetFailedLogins(ServerWebExchange exchange,
                                                          @AuthenticationPrincipal ApiPrincipal caller,
                                                          @PathVariable String userId) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("userId", userId);
        return commands.send(new ResetFailedLoginAttemptsCommand(UserId.of(userId), caller.actor(), Clock.nowSeconds()),
                        userId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("reset", Map.of()), null, sent.position()));
    }
}
