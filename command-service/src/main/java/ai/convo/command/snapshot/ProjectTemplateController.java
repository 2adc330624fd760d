package ai.convo.command.snapshot;

import ai.convo.command.task.TaskRequests;
import ai.convo.command.web.Clock;
import ai.convo.contract.common.Actor;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.CreateProjectCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.http.body.JsonBody;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The official client's createProjectByTemplate: creates the project (with its primary locale) and submits the
 * createProjectByTemplate task that fills it with the template, in ONE transaction; answers 202 with the task. The
 * templates are this server's own (ProjectTemplates); {@code template} null or absent is the empty one. The client's
 * endpoints, skills and handover settings are checked and kept in the task's parameters; this server has no
 * endpoints or live-agent inbox to set up, so nothing else is made of them.
 */
@RestController
class ProjectTemplateController {

    private static final Set<String> FIELDS = Set.of("name", "color", "locale", "templateConfiguration",
            "handoverConfiguration");
    private static final Set<String> TEMPLATE_FIELDS = Set.of("endpoints", "skills", "template");
    private static final Set<String> HANDOVER_FIELDS = Set.of("setupLiveAgentInbox", "whisperAssistConfiguration");
    private static final List<String> WHISPER = List.of("none", "basic", "template");
    private static final int MAX_NAME = 200;
    private static final int MAX_COLOR = 50;
    private static final int MAX_LIST = 50;
    private static final int MAX_TEXT = 200;

    private final TaskRequests tasks;

    ProjectTemplateController(TaskRequests tasks) {
        this.tasks = tasks;
    }

    @PostMapping("/v2.0/projects/createbytemplate")
    public Mono<ResponseEntity<byte[]>> create(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                               @RequestBody(required = false) byte[] raw) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        JsonBody body = JsonBody.parse(exchange, raw, true).allowOnly(FIELDS);
        String name = body.requiredString("name", 1, MAX_NAME);
        NluLanguage language = body.requiredEnum("locale", NluLanguage::fromCode, NluLanguage.codes());
        String color = body.optionalString("color", 0, MAX_COLOR);
        Map<String, Object> problems = new LinkedHashMap<>();
        Map<String, Object> parameters = new LinkedHashMap<>();
        String template = templateConfiguration(body.asMap().get("templateConfiguration"), problems, parameters);
        handoverConfiguration(body.asMap().get("handoverConfiguration"), problems, parameters);
        if (template != null && language != null && !problems.containsKey("templateConfiguration.template")) {
            List<String> languages = ProjectTemplates.languagesOf(template, NluLanguage.codes());
            if (languages != null && !languages.contains(language.code())) {
                problems.put("locale", "the template " + template + " has content in " + String.join(", ", languages)
                        + " only; got " + language.code());
            }
        }
        body.validate(problems);
        Actor actor = caller.actor();
        ProjectId projectId = ProjectId.generate();
        parameters.put("projectId", projectId.value());
        parameters.put("template", template);
        parameters.put("locale", language.code());
        parameters.put("name", name);
        CreateProjectCommand command = new CreateProjectCommand(projectId, actor, name, color == null ? "" : color,
                LocaleId.generate(), UUID.randomUUID().toString(), language, Clock.nowSeconds());
        return tasks.accept(exchange, media, projectId, TaskId.generate(), CreateProjectByTemplateWork.TYPE, parameters,
                actor, () -> command);
    }

    /** The template's name (empty when none is given); its endpoints and skills go into the parameters. */
    private static String template(Object given, Map<String, Object> problems) {
        if (given == null) {
            return ProjectTemplates.EMPTY;
        }
        if (!(given instanceof String name) || !ProjectTemplates.NAMES.contains(name)) {
            problems.put("templateConfiguration.template", "must be one of the templates this server has: "
                    + String.join(", ", ProjectTemplates.NAMES) + " (or null for " + ProjectTemplates.EMPTY + ")");
            return null;
        }
        return name;
    }

    private static String templateConfiguration(Object given, Map<String, Object> problems,
                                                Map<String, Object> parameters) {
        if (given == null) {
            return ProjectTemplates.EMPTY;
        }
        if (!(given instanceof Map<?, ?> config)) {
            problems.put("templateConfiguration", "must be an object {endpoints, skills, template}");
            return null;
        }
        for (Object key : config.keySet()) {
            if (!TEMPLATE_FIELDS.contains(key)) {
                problems.put("templateConfiguration." + key, "unknown field; allowed: endpoints, skills, template");
            }
        }
        List<String> channels = new ArrayList<>();
        Object endpoints = config.get("endpoints");
        if (endpoints != null) {
            if (!(endpoints instanceof List<?> list) || list.size() > MAX_LIST || !list.stream().allMatch(e ->
                    e instanceof Map<?, ?> endpoint && endpoint.keySet().equals(Set.of("channel"))
                            && endpoint.get("channel") instanceof String channel && !channel.isBlank()
                            && channel.length() <= MAX_TEXT)) {
                problems.put("templateConfiguration.endpoints", "must be a list of at most " + MAX_LIST
                        + " objects {channel}, each channel a string of 1 to " + MAX_TEXT + " characters");
            } else {
                list.forEach(e -> channels.add((String) ((Map<?, ?>) e).get("channel")));
            }
        }
        List<String> skills = new ArrayList<>();
        Object given2 = config.get("skills");
        if (given2 != null) {
            if (!(given2 instanceof List<?> list) || list.size() > MAX_LIST || !list.stream().allMatch(s ->
                    s instanceof String skill && !skill.isBlank() && skill.length() <= MAX_TEXT)) {
                problems.put("templateConfiguration.skills", "must be a list of at most " + MAX_LIST
                        + " strings of 1 to " + MAX_TEXT + " characters");
            } else {
                list.forEach(s -> skills.add((String) s));
            }
        }
        parameters.put("endpoints", channels);
        parameters.put("skills", skills);
        return template(config.get("template"), problems);
    }

    private static void handoverConfiguration(Object given, Map<String, Object> problems,
                                              Map<String, Object> parameters) {
        if (given == null) {
            return;
        }
        if (!(given instanceof Map<?, ?> config)) {
            problems.put("handoverConfiguration", "must be an object {setupLiveAgentInbox, whisperAssistConfiguration}");
            return;
        }
        for (Object key : config.keySet()) {
            if (!HANDOVER_FIELDS.contains(key)) {
                problems.put("handoverConfiguration." + key, "unknown field; allowed: setupLiveAgentInbox, "
                        + "whisperAssistConfiguration");
            }
        }
        Object inbox = config.get("setupLiveAgentInbox");
        if (inbox != null && !(inbox instanceof Boolean)) {
            problems.put("handoverConfiguration.setupLiveAgentInbox", "must be true or false");
        }
        Object whisper = config.get("whisperAssistConfiguration");
        if (whisper != null && !WHISPER.contains(whisper)) {
            problems.put("handoverConfiguration.whisperAssistConfiguration", "must be one of "
                    + String.join(", ", WHISPER));
        }
        Map<String, Object> handover = new LinkedHashMap<>();
        handover.put("setupLiveAgentInbox", Boolean.TRUE.equals(inbox));
        handover.put("whisperAssistConfiguration", whisper == null ? "none" : whisper);
        parameters.put("handoverConfiguration", handover);
    }
}
