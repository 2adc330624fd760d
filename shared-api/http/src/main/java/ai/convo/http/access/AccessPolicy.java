package ai.convo.http.access;

import ai.convo.contract.identity.OrganisationRoles;
import java.util.ArrayList;
import java.util.LinkedHashSet;
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
 * path pattern, the resource type it reads or writes, and the roles that allow it. Organisation administrators may
 * do everything; a project rule also needs the caller to be a member of the route's project (a non-member gets the
 * 404 of a project that does not exist). A route without a rule is open to every user of the organisation.
 */
public final class AccessPolicy {

    public enum Kind { READ, WRITE }

    /**
     * ANYONE: every user of the organisation (their own things); ORGANISATION: one of the organisation-wide roles;
     * PROJECT: one of the project-wide roles in the project the path names.
     */
    public enum Scope { ANYONE, ORGANISATION, PROJECT }

    public record Rule(HttpMethod method, String path, String resource, Kind kind, Scope scope, Set<String> roles,
                       PathPattern pattern) {
    }

    /** A request's rule and the values of its path variables. */
    public record Match(Rule rule, Map<String, String> variables) {
    }

    private static final PathPatternParser PARSER = new PathPatternParser();

    private static final Set<String> USER_READERS = Set.of(OrganisationRoles.USER_MANAGER,
            OrganisationRoles.USER_DETAILS_VIEWER);
    private static final Set<String> USER_MANAGERS = Set.of(OrganisationRoles.USER_MANAGER);
    private static final Set<String> MEMBER_READERS = Set.of("projectAdmin", "memberManager", "basic");
    private static final Set<String> MEMBER_MANAGERS = Set.of("projectAdmin", "memberManager");

    private final List<Rule> rules = new ArrayList<>();
    private final String basePath;

    public AccessPolicy(String basePath) {
        this.basePath = basePath == null || basePath.equals("/") ? "" : basePath;
        // users of the organisation (the caller's own record and password: anyone)
        organisation("GET", "/v2.0/users", "user", Kind.READ, USER_READERS);
        organisation("GET", "/v2.0/users/{userId}", "user", Kind.READ, USER_READERS);
        organisation("POST", "/v2.0/users", "user", Kind.WRITE, USER_MANAGERS);
        organisation("PATCH", "/v2.0/users/{userId}", "user", Kind.WRITE, USER_MANAGERS);
        organisation("DELETE", "/v2.0/users/{userId}", "user", Kind.WRITE, USER_MANAGERS);
        organisation("POST", "/v2.0/users/{userId}/addroletouser", "user", Kind.WRITE, Set.of());
        organisation("POST", "/v2.0/users/{userId}/removerolefromuser", "user", Kind.WRITE, Set.of());
        organisation("POST", "/v2.0/users/{userId}/resetfailedloginattempts", "user", Kind.WRITE, USER_MANAGERS);
        anyone("GET", "/v2.0/users/me", "user", Kind.READ);
        anyone("PATCH", "/v2.0/users/me", "user", Kind.WRITE);
        anyone("DELETE", "/v2.0/users/me", "user", Kind.WRITE);
        anyone("POST", "/v2.0/users/me/changepassword", "user", Kind.WRITE);
        // project members
        project("GET", "/v2.0/projects/{projectId}/members", "projectMember", Kind.READ, MEMBER_READERS);
        project("GET", "/v2.0/projects/{projectId}/members/{userId}", "projectMember", Kind.READ, MEMBER_READERS);
        project("POST", "/v2.0/projects/{projectId}/addprojectmember", "projectMember", Kind.WRITE, MEMBER_MANAGERS);
        project("POST", "/v2.0/projects/{projectId}/removeprojectmember", "projectMember", Kind.WRITE,
                MEMBER_MANAGERS);
        project("PATCH", "/v2.0/projects/{projectId}/members/{userId}", "projectMember", Kind.WRITE, MEMBER_MANAGERS);
        project("POST", "/v2.0/projects/{projectId}/members/{userId}/addroletomember", "projectMember", Kind.WRITE,
                MEMBER_MANAGERS);
        project("POST", "/v2.0/projects/{projectId}/members/{userId}/removerolefrommember", "projectMember",
                Kind.WRITE, MEMBER_MANAGERS);
    }

    private void organisation(String method, String path, String resource, Kind kind, Set<String> roles) {
        add(method, path, resource, kind, Scope.ORGANISATION, roles);
    }

    private void anyone(String method, String path, String resource, Kind kind) {
        add(method, path, resource, kind, Scope.ANYONE, Set.of());
    }

    private void project(String method, String path, String resource, Kind kind, Set<String> roles) {
        add(method, path, resource, kind, Scope.PROJECT, roles);
    }

    private void add(String method, String path, String resource, Kind kind, Scope scope, Set<String> roles) {
        rules.add(new Rule(HttpMethod.valueOf(method), path, resource, kind, scope,
                java.util.Collections.unmodifiableSet(new LinkedHashSet<>(roles)), PARSER.parse(path)));
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
