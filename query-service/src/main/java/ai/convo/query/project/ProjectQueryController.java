package ai.convo.query.project;

import ai.convo.contract.project.ProjectRecord;
import ai.convo.contract.settings.Settings;
import ai.convo.http.list.ListRequest;
import ai.convo.http.media.ApiMedia;
import ai.convo.http.media.Negotiation;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.settings.SettingsRows;
import ai.convo.query.web.Reads;
import ai.convo.query.web.list.Column;
import ai.convo.query.web.list.ListDefinition;
import ai.convo.query.web.list.ListOf;
import ai.convo.query.web.list.Parent;
import ai.convo.query.web.list.Scope;
import io.r2dbc.spi.Readable;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

@RestController
class ProjectQueryController {

    static final ListDefinition LIST = new ListDefinition("projects", "project_view", Map.of(
            "name", Column.text("lower(name)"),
            "color", Column.text("color"),
            "createdAt", Column.number("created_at"),
            "lastChanged", Column.number("last_changed"),
            "_id", Column.text("id")), "name");

    static final Reads.One ONE = new Reads.One("project_view", "Project", "project", ProjectQueryController::wire);
    static final Reads.One SETTINGS = new Reads.One("project_view", "Project", "settings",
            SettingsRows.wire(Settings.PROJECT, false));

    private final Reads reads;

    public ProjectQueryController(Reads reads) {
        this.reads = reads;
    }

    @ListOf("LIST")
    @GetMapping("/v2.0/projects")
    public Mono<ResponseEntity<byte[]>> list(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller) {
        ApiMedia media = Negotiation.negotiate(exchange, ApiMedia.JSON);
        ListRequest request = ListRequest.parse(exchange, LIST.sortableFields());
        // a user who is no organisation administrator sees the projects they are a member of (AccessPolicy)
        Scope scope = caller.isOrganisationAdmin()
                ? new Scope("organisation_id = :org", Map.of("org", caller.organisationId()),
                        "projects|" + caller.organisationId())
                : new Scope("organisation_id = :org AND id IN (SELECT project_id FROM identity_member "
                        + "WHERE user_id = :member)", Map.of("org", caller.organisationId(), "member", caller.userId()),
                        "projects|" + caller.organisationId() + "|" + caller.userId());
        return reads.page(exchange, media, LIST, request, scope, null, ProjectQueryController::wire);
    }

    @GetMapping("/v2.0/projects/{projectId}")
    public Mono<ResponseEntity<byte[]>> read(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                             @PathVariable String projectId) {
        return reads.one(exchange, ApiMedia.JSON, ONE, "projectId", projectId, caller.organisationId());
    }

    /** The official client's readProjectSettings: every setting, the ones a client set over the defaults. */
    @GetMapping("/v2.0/projects/{projectId}/settings")
    public Mono<ResponseEntity<byte[]>> settings(ServerWebExchange exchange, @AuthenticationPrincipal ApiPrincipal caller,
                                                 @PathVariable String projectId) {
        return reads.one(exchange, ApiMedia.JSON, SETTINGS, "projectId", projectId, caller.organisationId());
    }

    static Map<String, Object> wire(Readable row) {
        return new ProjectRecord(row.get("id", String.class), row.get("name", String.class),
                row.get("color", String.class), row.get("primary_locale_reference", String.class),
                row.get("created_at", Long.class), row.get("last_changed", Long.class),
                row.get("created_by", String.class), row.get("last_changed_by", String.class)).toWire();
    }
}
