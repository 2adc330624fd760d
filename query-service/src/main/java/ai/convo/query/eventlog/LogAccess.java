package ai.convo.query.eventlog;

import ai.convo.contract.identity.Role;
import ai.convo.http.problem.ApiProblem;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.query.web.QueryParams;
import org.springframework.web.server.ServerWebExchange;

/**
 * Who may read an organisation's event log and audit trail: its administrators; a system administrator may name
 * another organisation ({@code organisationId}); members may not (403). The answer is the organisation to read.
 */
public final class LogAccess {

    private LogAccess() {
    }

    public static String organisation(ServerWebExchange exchange, ApiPrincipal caller) {
        String named = QueryParams.optionalId(exchange, "organisationId");
        if (caller.role() == Role.MEMBER) {
            throw ApiProblem.forbidden("Only an organisation administrator (or a system administrator) can read the "
                    + "organisation's audit events and event log.");
        }
        if (named != null && !named.equals(caller.organisationId())) {
            if (!caller.isSystemAdmin()) {
                throw ApiProblem.forbidden("Only a system administrator can read another organisation's audit events "
                        + "and event log.");
            }
            return named;
        }
        return caller.organisationId();
    }
}
