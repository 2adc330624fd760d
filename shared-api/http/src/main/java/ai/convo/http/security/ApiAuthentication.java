package ai.convo.http.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** Spring Security's view of an {@link ApiPrincipal}; controllers take the principal itself. */
public final class ApiAuthentication extends AbstractAuthenticationToken {

    private final ApiPrincipal principal;

    public ApiAuthentication(ApiPrincipal principal) {
        super(List.of(new SimpleGrantedAuthority("ROLE_" + principal.role().name())));
        this.principal = principal;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public ApiPrincipal getPrincipal() {
        return principal;
    }
}
