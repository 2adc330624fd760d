package ai.convo.command.member;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.identity.UserId;
import ai.convo.contract.member.AddMemberCommand;
import ai.convo.contract.member.AddMemberRoleCommand;
import ai.convo.contract.member.ChangeMemberLocalesCommand;
import ai.convo.contract.member.ProjectRoles;
import ai.convo.contract.member.RemoveMemberCommand;
import ai.convo.contract.member.RemoveMemberRoleCommand;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The client's project member methods (addProjectMember, removeProjectMember, updateProjectMember, addRoleToMember,
 * removeRoleFromMember, and addProjectToUser/removeProjectFromUser from the user's side). Each answers {} as the client expects; each change is an event of the member's user, with
 * who made it, so the audit trail shows who granted what.
 */
@RestController
class MemberController {

    private final Commands commands;

    public MemberController(Commands commands) {
        this.commands = commands;
    }

    @PostMapping("/v2.0/projects/{projectId}/addprojectmember")
    public Mono<ResponseEntity<byte[]>> add(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                            @PathVariable String projectId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        String userId = userId(exchange, raw);
        return done(exchange, media, commands.send(new AddMemberCommand(UserId.of(userId), caller.actor(), projectId,
                Clock.nowSeconds()), userId));
    }

    @PostMapping("/v2.0/projects/{projectId}/removeprojectmember")
    public Mono<ResponseEntity<byte[]>> remove(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        String userId = userId(exchange, raw);
        return done(exchange, media, commands.send(new RemoveMemberCommand(UserId.of(userId), caller.actor(),
                projectId, Clock.nowSeconds()), userId));
    }

    /** addProjectToUser: addProjectMember from the user's side, the same event. */
    @PostMapping("/v2.0/users/{userId}/addproject")
    public Mono<ResponseEntity<byte[]>> addProject(ServerWebExchange exchange,
                                                   @AuthenticationPrincipal ApiPrincipal caller,
                                                   @PathVariable String userId,
                                                   @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("userId", userId);
        String projectId = projectId(exchange, raw);
        return done(exchange, media, commands.send(new AddMemberCommand(UserId.of(userId), caller.actor(), projectId,
                Clock.nowSeconds()), userId));
    }

    /** removeProjectFromUser: removeProjectMember from the user's side, the same event. */
    @PostMapping("/v2.0/users/{userId}/removeproject")
    public Mono<ResponseEntity<byte[]>> removeProject(ServerWebExchange exchange,
                                                      @AuthenticationPrincipal ApiPrincipal caller,
                                                      @PathVariable String userId,
                                                      @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("userId", userId);
        String projectId = projectId(exchange, raw);
        return done(exchange, media, commands.send(new RemoveMemberCommand(UserId.of(userId), caller.actor(),
                projectId, Clock.nowSeconds()), userId));
    }

    /** allowedLocales: locale ids, or the client's [{localeId}], or null for every locale of the project. */
    @PatchMapping("/v2.0/projects/{projectId}/members/{userId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId, @PathVariable String userId,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Ids.require("userId", userId);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("allowedLocales"));
        if (!body.has("allowedLocales")) {
            body.validate(Map.of("allowedLocales", "is required: an array of locale ids (or of {localeId}), "
                    + "or null for every locale"));
        }
        List<String> locales = locales(body);
        return done(exchange, media, commands.send(new ChangeMemberLocalesCommand(UserId.of(userId), caller.actor(),
                projectId, locales, Clock.nowSeconds()), userId));
    }

    @PostMapping("/v2.0/projects/{projectId}/members/{userId}/addroletomember")
    public Mono<ResponseEntity<byte[]>> addRole(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                @PathVariable String projectId, @PathVariable String userId,
                                                @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Ids.require("userId", userId);
        String role = role(exchange, raw);
        return done(exchange, media, commands.send(new AddMemberRoleCommand(UserId.of(userId), caller.actor(),
                projectId, role, Clock.nowSeconds()), userId));
    }

    @PostMapping("/v2.0/projects/{projectId}/members/{userId}/removerolefrommember")
    public Mono<ResponseEntity<byte[]>> removeRole(ServerWebExchange exchange,
                                                   @AuthenticationPrincipal ApiPrincipal caller,
                                                   @PathVariable String projectId, @PathVariable String userId,
                                                   @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        Ids.require("userId", userId);
        String role = role(exchange, raw);
        return done(exchange, media, commands.send(new RemoveMemberRoleCommand(UserId.of(userId), caller.actor(),
                projectId, role, Clock.nowSeconds()), userId));
    }

    private static Mono<ResponseEntity<byte[]>> done(ServerWebExchange exchange, ApiMedia media,
                                                     Mono<? extends Commands.Sent<?>> sent) {
        return sent.map(s -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                new Representation.Single("member", Map.of()), null, s.position()));
    }

    private static String userId(ServerWebExchange exchange, byte[] raw) {
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("userId"));
        String userId = body.requiredId("userId");
        body.validate();
        return userId;
    }

    private static String projectId(ServerWebExchange exchange, byte[] raw) {
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("projectId"));
        String projectId = body.requiredId("projectId");
        body.validate();
        return projectId;
    }

    private static String role(ServerWebExchange exchange, byte[] raw) {
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("role"));
        String role = body.requiredString("role", 1, 100);
        body.validate(role != null && !ProjectRoles.ALL.contains(role)
                ? Map.of("role", "must be one of the project-wide roles " + String.join(", ", ProjectRoles.ALL)
                        + "; got '" + role + "'")
                : Map.of());
        return role;
    }

    private static List<String> locales(JsonBody body) {
        Object value = body.asMap().get("allowedLocales");
        if (value == null) {
            return null;
        }
        List<String> ids = new ArrayList<>();
        boolean wrong = !(value instanceof List<?>);
        if (value instanceof List<?> items) {
            for (Object item : items) {
                Object id = item instanceof Map<?, ?> object && object.size() == 1 ? object.get("localeId") : item;
                if (id instanceof String text && Ids.isValid(text)) {
                    ids.add(text);
                } else {
                    wrong = true;
                }
            }
        }
        if (wrong || ids.size() > 100) {
            body.validate(Map.of("allowedLocales", "must be null (every locale) or an array of at most 100 locale "
                    + "ids of 24 characters [a-z0-9], each a string or {\"localeId\": id}"));
        }
        return ids;
    }
}
