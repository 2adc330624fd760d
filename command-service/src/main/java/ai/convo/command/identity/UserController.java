package ai.convo.command.identity;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.Ids;
import ai.convo.contract.identity.AddUserRoleCommand;
import ai.convo.contract.identity.ChangePasswordCommand;
import ai.convo.contract.identity.ChangeUserCommand;
import ai.convo.contract.identity.CreateUserCommand;
import ai.convo.contract.identity.DeleteUserCommand;
import ai.convo.contract.identity.OrganisationRoles;
import ai.convo.contract.identity.RemoveUserRoleCommand;
import ai.convo.contract.identity.UserId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.http.security.IdentityStore;
import ai.convo.http.security.Secrets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The client's user administration (createUser, updateUser(Me), deleteUser(Me), addRoleToUser, removeRoleFromUser,
 * changePassword). Who may call which is decided by the access policy, before any of this runs; passwords are
 * hashed here and never leave this class but as a hash written outside the event log.
 */
@RestController
class UserController {

    static final int MIN_PASSWORD = 8;

    private final Commands commands;
    private final IdentityStore identities;

    public UserController(Commands commands, IdentityStore identities) {
        this.commands = commands;
        this.identities = identities;
    }

    @PostMapping("/v2.0/users")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("email", "name", "password", "roles"));
        String email = body.requiredString("email", 3, 254);
        String name = body.optionalString("name", 1, 200);
        String password = body.optionalString("password", MIN_PASSWORD, 200);
        List<String> roles = names(body, "roles", OrganisationRoles.ALL, "organisation-wide roles");
        body.validate();
        String normalised = email(email, "email");
        UserId userId = UserId.generate();
        long now = Clock.nowSeconds();
        String shownName = name == null ? "" : name;
        return commands.blocking(() -> java.util.Optional.ofNullable(password).map(Secrets.PASSWORDS::encode))
                .flatMap(hash -> commands.send(new CreateUserCommand(userId, caller.actor(), normalised, shownName,
                        roles, hash.orElse(null), now), userId.value()))
                .map(sent -> {
                    Map<String, Object> record = new LinkedHashMap<>();
                    record.put("_id", userId.value());
                    record.put("name", shownName);
                    record.put("email", normalised);
                    record.put("roles", roles);
                    record.put("disabled", false);
                    record.put("createdAt", now);
                    record.put("createdBy", caller.userId());
                    return ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                            new Representation.Single("user", record),
                            exchange.getRequest().getPath().value() + "/" + userId.value(), sent.position());
                });
    }

    @PatchMapping("/v2.0/users/{userId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String userId, @RequestBody(required = false) byte[] raw) {
        Ids.require("userId", userId);
        return change(exchange, caller, userId, raw, true);
    }

    /** A user changes their own name or e-mail; whether they are disabled is an administrator's decision. */
    @PatchMapping("/v2.0/users/me")
    public Mono<ResponseEntity<byte[]>> updateMe(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                 @RequestBody(required = false) byte[] raw) {
        return change(exchange, caller, caller.userId(), raw, false);
    }

    private Mono<ResponseEntity<byte[]>> change(ServerWebExchange exchange, ApiPrincipal caller, String userId,
                                                byte[] raw, boolean administered) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true)
                .allowOnly(administered ? Set.of("name", "email", "disabled") : Set.of("name", "email"));
        String name = body.optionalString("name", 1, 200);
        String email = body.optionalString("email", 3, 254);
        Boolean disabled = administered ? body.optionalBoolean("disabled") : null;
        body.validate();
        String normalised = email == null ? null : email(email, "email");
        return commands.send(new ChangeUserCommand(UserId.of(userId), caller.actor(), name, normalised, disabled,
                        Clock.nowSeconds()), userId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("user", Map.of()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/users/{userId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String userId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("userId", userId);
        return commands.send(new DeleteUserCommand(UserId.of(userId), caller.actor(), Clock.nowSeconds()), userId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    @DeleteMapping("/v2.0/users/me")
    public Mono<ResponseEntity<byte[]>> deleteMe(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        return commands.send(new DeleteUserCommand(UserId.of(caller.userId()), caller.actor(), Clock.nowSeconds()),
                        caller.userId())
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    @PostMapping("/v2.0/users/{userId}/addroletouser")
    public Mono<ResponseEntity<byte[]>> addRole(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @PathVariable String userId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("userId", userId);
        String role = role(exchange, raw);
        return commands.send(new AddUserRoleCommand(UserId.of(userId), caller.actor(), role, Clock.nowSeconds()),
                        userId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("user", Map.of()), null, sent.position()));
    }

    @PostMapping("/v2.0/users/{userId}/removerolefromuser")
    public Mono<ResponseEntity<byte[]>> removeRole(ServerWebExchange exchange,
                                                   @AuthenticationPrincipal ApiPrincipal caller,
                                                   @PathVariable String userId,
                                                   @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("userId", userId);
        String role = role(exchange, raw);
        return commands.send(new RemoveUserRoleCommand(UserId.of(userId), caller.actor(), role, Clock.nowSeconds()),
                        userId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("user", Map.of()), null, sent.position()));
    }

    /** The caller's own password: the current one is checked first, as at sign-in. */
    @PostMapping("/v2.0/users/me/changepassword")
    public Mono<ResponseEntity<byte[]>> changePassword(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("oldPassword", "newPassword"));
        String oldPassword = body.requiredString("oldPassword", 1, 200);
        String newPassword = body.requiredString("newPassword", MIN_PASSWORD, 200);
        body.validate();
        Actor actor = caller.actor();
        return identities.findByEmail(caller.email())
                .map(IdentityStore.PasswordUser::passwordHash)
                .defaultIfEmpty("")
                .flatMap(current -> commands.blocking(() -> {
                    if (!Secrets.PASSWORDS.matches(oldPassword, current)) {
                        throw ApiProblem.badRequest("oldPassword is not your current password.",
                                Map.of("oldPassword", "is not your current password"));
                    }
                    return Secrets.PASSWORDS.encode(newPassword);
                }))
                .flatMap(hash -> commands.send(new ChangePasswordCommand(UserId.of(caller.userId()), actor, hash,
                        Clock.nowSeconds()), caller.userId()))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("user", Map.of()), null, sent.position()));
    }

    private static String role(ServerWebExchange exchange, byte[] raw) {
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("role"));
        String role = body.requiredString("role", 1, 100);
        body.validate(role != null && !OrganisationRoles.ALL.contains(role)
                ? Map.of("role", "must be one of " + String.join(", ", OrganisationRoles.ALL) + "; got '" + role + "'")
                : Map.of());
        return role;
    }

    private static String email(String email, String field) {
        String normalised = email.trim().toLowerCase(Locale.ROOT);
        if (!IdentityController.EMAIL.matcher(normalised).matches()) {
            throw ApiProblem.badRequest(field + " must be an email address like name@example.com.",
                    Map.of(field, "must be an email address like name@example.com"));
        }
        return normalised;
    }

    /** An optional array of names, each one of {@code allowed}; an empty list when absent. */
    static List<String> names(JsonBody body, String field, List<String> allowed, String what) {
        Object value = body.asMap().get(field);
        if (value == null) {
            return List.of();
        }
        List<String> wrong = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof String name && allowed.contains(name)) {
                    names.add(name);
                } else {
                    wrong.add(String.valueOf(item));
                }
            }
        } else {
            wrong.add(String.valueOf(value));
        }
        if (!wrong.isEmpty()) {
            body.validate(Map.of(field, "must be an array of " + what + " (" + String.join(", ", allowed)
                    + "); not: " + String.join(", ", wrong)));
        }
        return List.copyOf(names);
    }
}
