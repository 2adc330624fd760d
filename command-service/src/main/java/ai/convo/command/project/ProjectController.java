package ai.convo.command.project;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.CreateProjectCommand;
import ai.convo.contract.project.DeleteProjectCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.project.ProjectPatch;
import ai.convo.contract.project.ProjectRecord;
import ai.convo.contract.project.UpdateProjectCommand;
import ai.convo.contract.project.UpdateProjectSettingsCommand;
import ai.convo.contract.settings.Settings;
import ai.convo.contract.settings.SettingsRecord;
import ai.convo.contract.settings.SettingsSchema;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
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
class ProjectController {

    private static final Set<String> CREATE_FIELDS = Set.of("name", "locale", "color");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "color");
    private static final int MAX_NAME = 200;
    private static final int MAX_COLOR = 50;

    private final Commands commands;
    private final ProjectLookup projects;

    public ProjectController(Commands commands, ProjectLookup projects) {
        this.commands = commands;
        this.projects = projects;
    }

    /** Creates a project with its primary locale, whose nluLanguage is {@code locale}. */
    @PostMapping("/v2.0/projects")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String name = body.requiredString("name", 1, MAX_NAME);
        NluLanguage language = body.requiredEnum("locale", NluLanguage::fromCode, NluLanguage.codes());
        String color = body.optionalString("color", 0, MAX_COLOR);
        body.validate();
        ProjectId projectId = ProjectId.generate();
        LocaleId localeId = LocaleId.generate();
        long now = Clock.nowSeconds();
        CreateProjectCommand command = new CreateProjectCommand(projectId, caller.actor(), name,
                color == null ? "" : color, localeId, UUID.randomUUID().toString(), language, now);
        ProjectRecord record = new ProjectRecord(projectId.value(), name, command.color(), localeId.value(), now, now,
                caller.userId(), caller.userId());
        return commands.send(command, projectId.value())
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.CREATED, media,
                        new Representation.Single("project", record.toWire()),
                        exchange.getRequest().getPath().value() + "/" + projectId.value(), sent.position()));
    }

    /** Renames or recolours a project (the official client's updateProject); answers the full updated project. */
    @PatchMapping("/v2.0/projects/{projectId}")
    public Mono<ResponseEntity<byte[]>> update(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId, @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        JsonBody body = JsonBody.parse(exchange, raw, false).allowOnly(PATCH_FIELDS);
        String name = body.optionalString("name", 1, MAX_NAME);
        String color = body.optionalString("color", 0, MAX_COLOR);
        body.validate();
        return commands.<ProjectRecord>send(new UpdateProjectCommand(ProjectId.of(projectId), caller.actor(),
                        new ProjectPatch(name, color), Clock.nowSeconds()), projectId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("project", sent.result().toWire()), null, sent.position()));
    }

    /**
     * The official client's updateProjectSettings: any part of the settings, nested as a read shows them (a read sent
     * back is fine: its _id and dates are skipped). Answers the full settings afterwards.
     */
    @PatchMapping("/v2.0/projects/{projectId}/settings")
    public Mono<ResponseEntity<byte[]>> updateSettings(ServerWebExchange exchange,
                                                       @AuthenticationPrincipal ApiPrincipal caller,
                                                       @PathVariable String projectId,
                                                       @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        JsonBody body = JsonBody.parse(exchange, raw, false);
        SettingsSchema.Patch patch = Settings.PROJECT.patch(body.asMap(), Settings.METADATA);
        body.validate(patch.problems());
        return commands.<SettingsRecord>send(new UpdateProjectSettingsCommand(ProjectId.of(projectId), caller.actor(),
                        patch.changes(), Clock.nowSeconds()), projectId)
                .map(sent -> ApiResponses.respond(exchange, HttpStatus.OK, media,
                        new Representation.Single("settings", sent.result().toWire(Settings.PROJECT)), null,
                        sent.position()));
    }

    /**
     * The official client's validateProjectName: 200 with an empty object when {@code name} could name a new project
     * of the caller's organisation, 400 when it is no valid name, 409 naming the project that already has it
     * (ignoring case). It only answers: creating a project with a taken name is still allowed.
     */
    @PostMapping("/v2.0/projects/validateprojectname")
    public Mono<ResponseEntity<byte[]>> validateName(ServerWebExchange exchange,
                                                     @AuthenticationPrincipal ApiPrincipal caller,
                                                     @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(Set.of("name"));
        String name = body.requiredString("name", 1, MAX_NAME);
        body.validate();
        return commands.blocking(() -> projects.projectNamed(caller.actor().organisationId(), name))
                .map(taken -> {
                    if (taken.isPresent()) {
                        throw DomainException.conflict("Project " + taken.get() + " of this organisation is already "
                                + "named '" + name + "' (names are compared ignoring case).",
                                Map.of("projectId", taken.get()));
                    }
                    return ApiResponses.ok(exchange, media, new Representation.Single("validation", Map.of()));
                });
    }

    @DeleteMapping("/v2.0/projects/{projectId}")
    public Mono<ResponseEntity<byte[]>> delete(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @PathVariable String projectId) {
        Negotiation.negotiate(exchange, ApiMedia.JSON);
        Ids.require("projectId", projectId);
        return commands.send(new DeleteProjectCommand(ProjectId.of(projectId), caller.actor(), Clock.nowSeconds()),
                        projectId)
                .map(sent -> ApiResponses.noContent(sent.position()));
    }
}
