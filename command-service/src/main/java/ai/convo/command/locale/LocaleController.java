package ai.convo.command.locale;

import ai.convo.command.web.Absent;
import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.CreateLocaleCommand;
import ai.convo.contract.locale.DeleteLocaleCommand;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.LocalePatch;
import ai.convo.contract.locale.LocaleRecord;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.locale.UpdateLocaleCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
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

@RestController
class LocaleController {

    private static final Set<String> CREATE_FIELDS =
            Set.of("projectId", "name", "nluLanguage", "primary", "fallbackLocaleReference");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "primary", "nluLanguage", "fallbackLocaleReference");

    private final Commands commands;
    private final LocaleLookup lookup;

    public LocaleController(Commands commands, LocaleLookup lookup) {
        this.commands = commands;
        this.lookup = lookup;
    }

    @PostMapping("/v2.0/locales")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String projectId = body.requiredId("projectId");
        String name = body.requiredString("name", 1, 200);
        NluLanguage language = body.requiredEnum("nluLanguage", NluLanguage::fromCode, NluLanguage.codes());
        Boolean primary = body.optionalBoolean("primary");
        String fallback = body.optionalId("fallbackLocaleReference");
        body.validate();
        LocaleId localeId = LocaleId.generate();
        CreateLocaleCommand command = new CreateLocaleCommand(ProjectId.of(projectId), localeId, caller.actor(),
                UUID.randomUUID().toString(), name, language, Boolean.TRUE.equals(primary),
                fallback == null ? null : LocaleId.of(fallback), Clock.nowSeconds());
        return commands.<LocaleRecord>send(command, projectId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("locale", sent.result().toWire()),
                        exchange.getRequest().getPath().value() + "/" + localeId.value(), sent.position()));
    }

    /** The specification's locale update: answers the full record, HAL+JSON unless asked otherwise. */
    @PatchMapping("/v2.0/locales/{localeId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String localeId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.HAL);
        Ids.require("localeId", localeId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(PATCH_FIELDS);
        String name = body.optionalString("name", 1, 200);
        Boolean primary = body.optionalBoolean("primary");
        NluLanguage language = body.optionalEnum("nluLanguage", NluLanguage::fromCode, NluLanguage.codes());
        String fallback = body.optionalId("fallbackLocaleReference");
        body.validate();
        LocalePatch patch = new LocalePatch(name, primary, language, body.has("fallbackLocaleReference"),
                fallback == null ? null : LocaleId.of(fallback));
        return this.<LocaleRecord>toProjectOf(localeId, projectId -> new UpdateLocaleCommand(ProjectId.of(projectId),
                        LocaleId.of(localeId), caller.actor(), patch, Clock.nowSeconds()))
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("locale", sent.result().toWire()), null, sent.position()));
    }

    @DeleteMapping("/v2.0/locales/{localeId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String localeId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("localeId", localeId);
        return toProjectOf(localeId, projectId -> new DeleteLocaleCommand(ProjectId.of(projectId),
                        LocaleId.of(localeId), caller.actor(), Clock.nowSeconds()))
                .doOnSuccess(deleted -> lookup.forget(localeId))
                .map(sent -> ApiResponses.noContent(sent.position()));
    }

    /**
     * Sends a command about the locale to its project, by the route this replica remembers (no look-up per command).
     * A 404 on a remembered route may mean the locale or its project is gone since: the route is forgotten and the
     * command sent once more by a fresh look-up, so the answer is the one a fresh look-up gives.
     */
    private <R> Mono<Commands.Sent<R>> toProjectOf(String localeId, Function<String, Object> command) {
        return commands.<R>sendTo(() -> project(lookup.routeOf(localeId), localeId), command)
                .onErrorResume(error -> error instanceof DomainException refused
                                && refused.kind() == DomainException.Kind.NOT_FOUND && lookup.forget(localeId),
                        error -> commands.<R>sendTo(() -> project(lookup.projectOf(localeId), localeId), command));
    }

    private static String project(Optional<String> found, String localeId) {
        return found.orElseThrow(() -> Absent.of(LocaleId.class, localeId));
    }
}
