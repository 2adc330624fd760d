package ai.convo.command.project;

import ai.convo.command.web.Clock;
import ai.convo.command.web.Commands;
import ai.convo.contract.common.Ids;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.CreateProjectCommand;
import ai.convo.contract.project.DeleteProjectCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.project.ProjectRecord;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.ApiResponses;
import ai.convo.http.media.Negotiation;
import ai.convo.http.media.Representation;
import ai.convo.http.security.ApiPrincipal;
import java.util.Set;
import java.util.UUID;
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
public class ProjectController {

    private static final Set<String> CREATE_FIELDS = Set.of("name", "locale", "color");

    private final Commands commands;

    public ProjectController(Commands commands) {
        this.commands = commands;
    }

    /** Creates a project with its primary locale, whose nluLanguage is {@code locale}. */
    @PostMapping("/v2.0/projects")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(CREATE_FIELDS);
        String name = body.requiredString("name", 1, 200);
        NluLanguage language = body.requiredEnum("locale", NluLanguage::fromCode, NluLanguage.codes());
        String color = body.optionalString("color", 0, 50);
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
