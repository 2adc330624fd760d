package ai.convo.http.access;

import ai.convo.contract.identity.OrganisationRoles;
import ai.convo.contract.member.ProjectRoles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Who may call which route: the one table both services decide by ({@link AccessFilter}). Each rule is a method and
 * path pattern, the resource type it reads or writes, the roles that allow it and where its project is named.
 * Organisation administrators may do everything. A project rule needs the caller to be a member of the route's
 * project holding one of the rule's roles; a non-member gets the 404 of a resource that does not exist. A route
 * without a rule is open to every user of the organisation (the route-table test refuses such a route).
 */
public final class AccessPolicy {

    public enum Kind { READ, WRITE }

    /**
     * ANYONE: every user of the organisation (their own things, or what the handler guards itself); ORGANISATION:
     * one of the organisation-wide roles (none: administrators only); PROJECT: one of the project-wide roles in the
     * project the request names.
     */
    public enum Scope { ANYONE, ORGANISATION, PROJECT }

    /**
     * {@code projectFrom}: the path variable whose resource belongs to the project ({@code projectId}, {@code flowId},
     * ...), {@code query:projectId} or {@code body:projectId}; null unless the scope is PROJECT. {@code acrossProjects}:
     * a list whose project is optional; without it the handler lists only the projects the caller is a member of.
     */
    public record Rule(HttpMethod method, String path, String resource, Kind kind, Scope scope, Set<String> roles,
                       String projectFrom, PathPattern pattern, boolean acrossProjects) {
    }

    /** A request's rule and the values of its path variables. */
    public record Match(Rule rule, Map<String, String> variables) {
    }

    private static final PathPatternParser PARSER = new PathPatternParser();

    /** Reading a project's content: any role in it ({@code basic} is the vendor's read-only one). */
    public static final Set<String> ANY_PROJECT_ROLE = Set.copyOf(ProjectRoles.ALL);

    private static final Set<String> USER_READERS = Set.of(OrganisationRoles.USER_MANAGER,
            OrganisationRoles.USER_DETAILS_VIEWER);
    private static final Set<String> USER_MANAGERS = Set.of(OrganisationRoles.USER_MANAGER);
    private static final Set<String> ADMINS_ONLY = Set.of();
    private static final String ADMIN = ProjectRoles.PROJECT_ADMIN;
    private static final Set<String> MEMBER_MANAGERS = Set.of(ADMIN, ProjectRoles.MEMBER_MANAGER);
    private static final Set<String> FLOW_EDITORS = Set.of(ADMIN, "flowEditor");
    private static final Set<String> INTENT_EDITORS = Set.of(ADMIN, "flowEditor", "intents");
    private static final Set<String> LOCALE_ADMINS = Set.of(ADMIN, "localesAdmin");
    private static final Set<String> TOKEN_EDITORS = Set.of(ADMIN, "tokenAdmin", "tokenEditor");
    private static final Set<String> TOKEN_ADMINS = Set.of(ADMIN, "tokenAdmin");
    private static final Set<String> FUNCTION_EDITORS = Set.of(ADMIN, "function_admin", "function_editor");
    private static final Set<String> FUNCTION_ADMINS = Set.of(ADMIN, "function_admin");
    private static final Set<String> KNOWLEDGE_ADMINS = Set.of(ADMIN, "knowledgeAdmin");
    private static final Set<String> SNAPSHOT_ADMINS = Set.of(ADMIN, "snapshot_admin");
    private static final Set<String> PROJECT_ADMINS = Set.of(ADMIN);

    private final List<Rule> rules = new ArrayList<>();
    private final String basePath;

    public AccessPolicy(String basePath) {
        this.basePath = basePath == null || basePath.equals("/") ? "" : basePath;
        users();
        projects();
        flows();
        resources();
        organisationWide();
    }

    private void users() {
        organisation("GET", "/v2.0/users", "user", Kind.READ, USER_READERS);
        organisation("GET", "/v2.0/users/{userId}", "user", Kind.READ, USER_READERS);
        organisation("POST", "/v2.0/users", "user", Kind.WRITE, USER_MANAGERS);
        organisation("PATCH", "/v2.0/users/{userId}", "user", Kind.WRITE, USER_MANAGERS);
        organisation("DELETE", "/v2.0/users/{userId}", "user", Kind.WRITE, USER_MANAGERS);
        organisation("POST", "/v2.0/users/{userId}/addroletouser", "user", Kind.WRITE, ADMINS_ONLY);
        organisation("POST", "/v2.0/users/{userId}/removerolefromuser", "user", Kind.WRITE, ADMINS_ONLY);
        organisation("POST", "/v2.0/users/{userId}/resetfailedloginattempts", "user", Kind.WRITE, USER_MANAGERS);
        anyone("GET", "/v2.0/users/me", "user", Kind.READ);
        anyone("PATCH", "/v2.0/users/me", "user", Kind.WRITE);
        anyone("DELETE", "/v2.0/users/me", "user", Kind.WRITE);
        anyone("POST", "/v2.0/users/me/changepassword", "user", Kind.WRITE);
        anyone("GET", "/v2.0/users/me/apikeys", "apiKey", Kind.READ);
        anyone("GET", "/v2.0/users/me/apikeys/{apiKeyId}", "apiKey", Kind.READ);
        anyone("POST", "/v2.0/users/me/apikeys", "apiKey", Kind.WRITE);
        anyone("DELETE", "/v2.0/users/me/apikeys/{apiKeyId}", "apiKey", Kind.WRITE);
        anyone("GET", "/v2.0/users/me/lastloginattempt", "user", Kind.READ);
        anyone("GET", "/v2.0/users/me/loginattempts", "user", Kind.READ);
        anyone("GET", "/v2.0/external/{voiceAssistant}/users/me", "voiceAssistantAccount", Kind.READ);
        anyone("POST", "/v2.0/external/{voiceAssistant}/users", "voiceAssistantAccount", Kind.WRITE);
        anyone("DELETE", "/v2.0/external/{voiceAssistant}/users/me", "voiceAssistantAccount", Kind.WRITE);
    }

    private void projects() {
        // the project list shows only the caller's projects (its handler filters); creating one is the organisation's
        anyone("GET", "/v2.0/projects", "project", Kind.READ);
        organisation("POST", "/v2.0/projects", "project", Kind.WRITE, Set.of(OrganisationRoles.PROJECT_MANAGER));
        organisation("POST", "/v2.0/projects/validateprojectname", "project", Kind.WRITE,
                Set.of(OrganisationRoles.PROJECT_MANAGER));
        organisation("POST", "/v2.0/projects/createbytemplate", "project", Kind.WRITE,
                Set.of(OrganisationRoles.PROJECT_MANAGER));
        read("/v2.0/projects/{projectId}", "project", "projectId");
        read("/v2.0/projects/{projectId}/settings", "project", "projectId");
        read("/v2.0/projects/{projectId}/history", "project", "projectId");
        read("/v2.0/projects/{projectId}/graph", "project", "projectId");
        write("PATCH", "/v2.0/projects/{projectId}", "project", "projectId", PROJECT_ADMINS);
        write("PATCH", "/v2.0/projects/{projectId}/settings", "project", "projectId", PROJECT_ADMINS);
        write("DELETE", "/v2.0/projects/{projectId}", "project", "projectId", PROJECT_ADMINS);
        write("POST", "/v2.0/projects/{projectId}/trainallflows", "intent", "projectId", INTENT_EDITORS);
        // scoring a sentence reads the last model and stores nothing: every member may
        write("POST", "/v2.0/projects/{projectId}/nlu/scores", "intent", "projectId", ANY_PROJECT_ROLE);
        read("/v2.0/projects/{projectId}/members", "projectMember", "projectId");
        read("/v2.0/projects/{projectId}/members/{userId}", "projectMember", "projectId");
        write("POST", "/v2.0/projects/{projectId}/addprojectmember", "projectMember", "projectId", MEMBER_MANAGERS);
        write("POST", "/v2.0/projects/{projectId}/removeprojectmember", "projectMember", "projectId",
                MEMBER_MANAGERS);
        // the same membership from the user's side: the project is the body's, the same roles decide
        write("POST", "/v2.0/users/{userId}/addproject", "projectMember", "body:projectId", MEMBER_MANAGERS);
        write("POST", "/v2.0/users/{userId}/removeproject", "projectMember", "body:projectId", MEMBER_MANAGERS);
        write("PATCH", "/v2.0/projects/{projectId}/members/{userId}", "projectMember", "projectId", MEMBER_MANAGERS);
        write("POST", "/v2.0/projects/{projectId}/members/{userId}/addroletomember", "projectMember", "projectId",
                MEMBER_MANAGERS);
        write("POST", "/v2.0/projects/{projectId}/members/{userId}/removerolefrommember", "projectMember",
                "projectId", MEMBER_MANAGERS);
        read("/v2.0/projects/{projectId}/snippets", "snippet", "projectId");
        read("/v2.0/projects/{projectId}/snippets/{snippetId}", "snippet", "projectId");
        read("/v2.0/projects/{projectId}/snippets/{snippetId}/history", "snippet", "projectId");
        write("POST", "/v2.0/projects/{projectId}/snippets", "snippet", "projectId", TOKEN_ADMINS);
        write("PATCH", "/v2.0/projects/{projectId}/snippets/{snippetId}", "snippet", "projectId", TOKEN_EDITORS);
        write("DELETE", "/v2.0/projects/{projectId}/snippets/{snippetId}", "snippet", "projectId", TOKEN_ADMINS);
    }

    private void flows() {
        list("/v2.0/flows", "flow");
        write("POST", "/v2.0/flows", "flow", "body:projectId", FLOW_EDITORS);
        write("PATCH", "/v2.0/flows", "flow", "query:projectId", FLOW_EDITORS);
        String flow = "/v2.0/flows/{flowId}";
        read(flow, "flow", "flowId");
        read(flow + "/settings", "flow", "flowId");
        read(flow + "/history", "flow", "flowId");
        write("PATCH", flow, "flow", "flowId", FLOW_EDITORS);
        write("DELETE", flow, "flow", "flowId", FLOW_EDITORS);
        write("POST", flow + "/clone", "flow", "flowId", FLOW_EDITORS);
        write("PATCH", flow + "/settings", "flow", "flowId", FLOW_EDITORS);
        write("POST", flow + "/addlocalization", "flow", "flowId", FLOW_EDITORS);
        write("POST", flow + "/removelocalization", "flow", "flowId", FLOW_EDITORS);
        for (String path : List.of("/states", "/states/{stateId}", "/states/{stateId}/history")) {
            read(flow + path, "flowState", "flowId");
        }
        write("POST", flow + "/states", "flowState", "flowId", FLOW_EDITORS);
        write("PATCH", flow + "/states", "flowState", "flowId", FLOW_EDITORS);
        write("PATCH", flow + "/states/{stateId}", "flowState", "flowId", FLOW_EDITORS);
        write("DELETE", flow + "/states/{stateId}", "flowState", "flowId", FLOW_EDITORS);
        write("POST", flow + "/states/{stateId}/addintent", "flowState", "flowId", FLOW_EDITORS);
        write("POST", flow + "/states/{stateId}/removeintent", "flowState", "flowId", FLOW_EDITORS);
        String intents = flow + "/intents";
        for (String path : List.of("", "/{intentId}", "/{intentId}/history", "/{intentId}/sentences",
                "/{intentId}/sentences/{sentenceId}", "/{intentId}/sentences/{sentenceId}/history",
                "/learningsentences", "/learningsentences/{learningSentenceId}", "/export/{taskId}")) {
            read(intents + path, path.contains("sentences") ? "examplesentence" : "intent", "flowId");
        }
        write("POST", intents, "intent", "flowId", INTENT_EDITORS);
        write("PATCH", intents, "intent", "flowId", INTENT_EDITORS);
        write("PATCH", intents + "/{intentId}", "intent", "flowId", INTENT_EDITORS);
        write("DELETE", intents + "/{intentId}", "intent", "flowId", INTENT_EDITORS);
        write("POST", intents + "/{intentId}/addlocalization", "intent", "flowId", INTENT_EDITORS);
        write("POST", intents + "/{intentId}/removelocalization", "intent", "flowId", INTENT_EDITORS);
        write("POST", intents + "/export", "intent", "flowId", INTENT_EDITORS);
        write("POST", intents + "/import", "intent", "flowId", INTENT_EDITORS);
        write("POST", intents + "/train", "intent", "flowId", INTENT_EDITORS);
        write("DELETE", intents + "/learningsentences/{learningSentenceId}", "intent", "flowId", INTENT_EDITORS);
        write("POST", intents + "/{intentId}/sentences", "examplesentence", "flowId", INTENT_EDITORS);
        write("PATCH", intents + "/{intentId}/sentences", "examplesentence", "flowId", INTENT_EDITORS);
        write("POST", intents + "/{intentId}/sentences/generate", "examplesentence", "flowId", INTENT_EDITORS);
        write("PATCH", intents + "/{intentId}/sentences/{sentenceId}", "examplesentence", "flowId", INTENT_EDITORS);
        write("DELETE", intents + "/{intentId}/sentences/{sentenceId}", "examplesentence", "flowId", INTENT_EDITORS);
        String slotFillers = flow + "/slotfillers";
        for (String path : List.of("", "/{slotFillerId}", "/{slotFillerId}/history")) {
            read(slotFillers + path, "slotFiller", "flowId");
        }
        write("POST", slotFillers, "slotFiller", "flowId", FLOW_EDITORS);
        write("PATCH", slotFillers, "slotFiller", "flowId", FLOW_EDITORS);
        write("PATCH", slotFillers + "/{slotFillerId}", "slotFiller", "flowId", FLOW_EDITORS);
        write("DELETE", slotFillers + "/{slotFillerId}", "slotFiller", "flowId", FLOW_EDITORS);
    }

    private void resources() {
        list("/v2.0/locales", "locale");
        write("POST", "/v2.0/locales", "locale", "body:projectId", LOCALE_ADMINS);
        read("/v2.0/locales/{localeId}", "locale", "localeId");
        read("/v2.0/locales/{localeId}/history", "locale", "localeId");
        write("PATCH", "/v2.0/locales/{localeId}", "locale", "localeId", LOCALE_ADMINS);
        write("DELETE", "/v2.0/locales/{localeId}", "locale", "localeId", LOCALE_ADMINS);
        String yesNo = "/v2.0/locales/{localeId}/yesnointents";
        for (String path : List.of("", "/{yesNoIntentId}/sentences")) {
            read(yesNo + path, "yesNoIntent", "localeId");
        }
        write("PATCH", yesNo + "/{yesNoIntentId}", "yesNoIntent", "localeId", INTENT_EDITORS);
        write("DELETE", yesNo + "/{yesNoIntentId}", "yesNoIntent", "localeId", INTENT_EDITORS);
        write("POST", yesNo + "/{yesNoIntentId}/sentences", "yesNoIntent", "localeId", INTENT_EDITORS);
        write("PATCH", yesNo + "/{yesNoIntentId}/sentences/{sentenceId}", "yesNoIntent", "localeId", INTENT_EDITORS);
        write("DELETE", yesNo + "/{yesNoIntentId}/sentences/{sentenceId}", "yesNoIntent", "localeId", INTENT_EDITORS);
        write("POST", yesNo + "/train", "yesNoIntent", "localeId", INTENT_EDITORS);
        write("POST", yesNo + "/scores", "yesNoIntent", "localeId", ANY_PROJECT_ROLE); // reads only, as nlu/scores
        write("POST", "/v2.0/projects/{projectId}/locales/yesnointents/train", "yesNoIntent", "projectId",
                INTENT_EDITORS);

        list("/v2.0/functions", "function");
        write("POST", "/v2.0/functions", "function", "body:projectId", FUNCTION_ADMINS);
        read("/v2.0/functions/{functionId}", "function", "functionId");
        read("/v2.0/functions/{functionId}/history", "function", "functionId");
        write("PATCH", "/v2.0/functions/{functionId}", "function", "functionId", FUNCTION_EDITORS);
        write("DELETE", "/v2.0/functions/{functionId}", "function", "functionId", FUNCTION_ADMINS);
        String instances = "/v2.0/functions/{functionId}/instances";
        for (String path : List.of("", "/{instanceId}", "/{instanceId}/history")) {
            read(instances + path, "functionInstance", "functionId");
        }
        // running a function is using it, as editing it is: its editors may, as its administrators may
        write("POST", "/v2.0/functions/{functionId}/trigger", "functionInstance", "functionId", FUNCTION_EDITORS);
        write("POST", instances + "/{instanceId}/stop", "functionInstance", "functionId", FUNCTION_EDITORS);

        list("/v2.0/knowledgestores", "knowledgeStore");
        write("POST", "/v2.0/knowledgestores", "knowledgeStore", "body:projectId", KNOWLEDGE_ADMINS);
        String store = "/v2.0/knowledgestores/{knowledgeStoreId}";
        for (String path : List.of("", "/history", "/sources", "/sources/{sourceId}", "/sources/{sourceId}/history",
                "/sources/{sourceId}/chunks", "/sources/{sourceId}/chunks/{chunkId}",
                "/sources/{sourceId}/chunks/{chunkId}/history", "/search")) {
            read(store + path, path.isEmpty() || path.equals("/history") ? "knowledgeStore"
                    : path.contains("chunks") || path.equals("/search") ? "knowledgeChunk" : "knowledgeSource",
                    "knowledgeStoreId");
        }
        // search over a project's stores (beyond the client): one project at a time, as its members read it
        read("/v2.0/knowledgestores/search", "knowledgeChunk", "query:projectId");
        write("PATCH", store, "knowledgeStore", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("DELETE", store, "knowledgeStore", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("POST", store + "/sources", "knowledgeSource", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("POST", store + "/sources/upload", "knowledgeSource", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("PATCH", store + "/sources/{sourceId}", "knowledgeSource", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("DELETE", store + "/sources/{sourceId}", "knowledgeSource", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("POST", store + "/sources/{sourceId}/chunks", "knowledgeChunk", "knowledgeStoreId", KNOWLEDGE_ADMINS);
        write("PATCH", store + "/sources/{sourceId}/chunks/{chunkId}", "knowledgeChunk", "knowledgeStoreId",
                KNOWLEDGE_ADMINS);
        write("DELETE", store + "/sources/{sourceId}/chunks/{chunkId}", "knowledgeChunk", "knowledgeStoreId",
                KNOWLEDGE_ADMINS);

        list("/v2.0/snapshots", "snapshot");
        write("POST", "/v2.0/snapshots", "snapshot", "body:projectId", SNAPSHOT_ADMINS);
        // an uploaded snapshot names its project in a form field: administrators only, until the form is read here
        organisation("POST", "/v2.0/snapshots/upload", "snapshot", Kind.WRITE, ADMINS_ONLY);
        String snapshot = "/v2.0/snapshots/{snapshotId}";
        for (String path : List.of("", "/history", "/resources", "/download")) {
            read(snapshot + path, "snapshot", "snapshotId");
        }
        write("DELETE", snapshot, "snapshot", "snapshotId", SNAPSHOT_ADMINS);
        write("POST", snapshot + "/package", "snapshot", "snapshotId", SNAPSHOT_ADMINS);
        write("POST", snapshot + "/downloadlink", "snapshot", "snapshotId", SNAPSHOT_ADMINS);
        // the vendor keeps restoring with the project administrator; the target project is the body's
        write("POST", snapshot + "/restore", "snapshot", "body:projectId", PROJECT_ADMINS);

        list("/v2.0/tasks", "task");
        read("/v2.0/tasks/{taskId}", "task", "taskId");
        read("/v2.0/tasks/{taskId}/history", "task", "taskId");
        write("POST", "/v2.0/tasks/{taskId}/cancel", "task", "taskId", PROJECT_ADMINS);
    }

    /** What spans the organisation: its audit trail and event log are its administrators'; its usage is everyone's. */
    private void organisationWide() {
        organisation("GET", "/v2.0/auditevents", "auditEvent", Kind.READ, ADMINS_ONLY);
        organisation("GET", "/v2.0/auditevents/{auditEventId}", "auditEvent", Kind.READ, ADMINS_ONLY);
        organisation("GET", "/v2.0/eventlog", "event", Kind.READ, ADMINS_ONLY);
        // the organisation's call counters were every user's to read before roles existed (deploy/openapi/callcounter.yaml)
        anyone("GET", "/v3.0/callcounter", "analytics", Kind.READ);
    }

    private void read(String path, String resource, String projectFrom) {
        add("GET", path, resource, Kind.READ, Scope.PROJECT, ANY_PROJECT_ROLE, projectFrom);
    }

    /** A list of one project (?projectId=) or, without it, of every project the caller is a member of. */
    private void list(String path, String resource) {
        add("GET", path, resource, Kind.READ, Scope.PROJECT, ANY_PROJECT_ROLE, "query:projectId", true);
    }

    private void write(String method, String path, String resource, String projectFrom, Set<String> roles) {
        add(method, path, resource, Kind.WRITE, Scope.PROJECT, roles, projectFrom);
    }

    private void organisation(String method, String path, String resource, Kind kind, Set<String> roles) {
        add(method, path, resource, kind, Scope.ORGANISATION, roles, null);
    }

    private void anyone(String method, String path, String resource, Kind kind) {
        add(method, path, resource, kind, Scope.ANYONE, Set.of(), null);
    }

    private void add(String method, String path, String resource, Kind kind, Scope scope, Set<String> roles,
                     String projectFrom) {
        add(method, path, resource, kind, scope, roles, projectFrom, false);
    }

    private void add(String method, String path, String resource, Kind kind, Scope scope, Set<String> roles,
                     String projectFrom, boolean acrossProjects) {
        rules.add(new Rule(HttpMethod.valueOf(method), path, resource, kind, scope,
                java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(roles)), projectFrom,
                PARSER.parse(path), acrossProjects));
    }

    public List<Rule> rules() {
        return List.copyOf(rules);
    }

    /**
     * The rule for a request, or null for a route without one. A literal path (/users/me) wins over a variable one
     * (/users/{userId}), as in the route table itself.
     */
    public Match match(HttpMethod method, String path) {
        if (!path.startsWith(basePath)) {
            return null;
        }
        String rest = path.substring(basePath.length());
        PathContainer container = PathContainer.parsePath(rest.isEmpty() ? "/" : rest);
        Rule best = null;
        PathPattern.PathMatchInfo bestInfo = null;
        for (Rule rule : rules) {
            if (!rule.method().equals(method)) {
                continue;
            }
            PathPattern.PathMatchInfo info = rule.pattern().matchAndExtract(container);
            if (info != null && (best == null || PathPattern.SPECIFICITY_COMPARATOR.compare(rule.pattern(),
                    best.pattern()) < 0)) {
                best = rule;
                bestInfo = info;
            }
        }
        return best == null ? null : new Match(best, bestInfo.getUriVariables());
    }

    /** "Knowledge store" for knowledgeStoreId: how a 404 names the resource a path variable identifies. */
    public static String noun(String variable) {
        String name = variable.replaceFirst("Id$", "");
        String words = name.replaceAll("([a-z])([A-Z])", "$1 $2");
        return words.isEmpty() ? "Resource"
                : Character.toUpperCase(words.charAt(0)) + words.substring(1).toLowerCase(Locale.ROOT);
    }
}
