package ai.convo.command.identity;

import ai.convo.contract.identity.ApiKeyId;
import ai.convo.contract.identity.CreateOrganisationCommand;
import ai.convo.contract.identity.IssueApiKeyCommand;
import ai.convo.contract.identity.OrganisationId;
import ai.convo.contract.identity.Role;
import ai.convo.contract.identity.UserId;
import ai.convo.command.web.Clock;
import ai.convo.http.security.Secrets;
import java.util.Locale;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * On the very first start (no user exists yet) creates the default organisation with a system administrator
 * and, if given, an API key, from BOOTSTRAP_ADMIN_EMAIL, BOOTSTRAP_ADMIN_PASSWORD and BOOTSTRAP_API_KEY.
 */
@Component
class Bootstrap implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(Bootstrap.class);

    private final CommandGateway commands;
    private final IdentityLookup lookup;
    private final String email;
    private final String password;
    private final String apiKey;

    public Bootstrap(CommandGateway commands, IdentityLookup lookup,
                     @Value("${BOOTSTRAP_ADMIN_EMAIL:}") String email,
                     @Value("${BOOTSTRAP_ADMIN_PASSWORD:}") String password,
                     @Value("${BOOTSTRAP_API_KEY:}") String apiKey) {
        this.commands = commands;
        this.lookup = lookup;
        this.email = email.trim().toLowerCase(Locale.ROOT);
        this.password = password;
        this.apiKey = apiKey;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (lookup.anyUser()) {
            return;
        }
        if (email.isEmpty() || password.isEmpty()) {
            log.warn("No user exists and BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD are not set: nobody can log in.");
            return;
        }
        OrganisationId organisation = OrganisationId.generate();
        UserId admin = UserId.generate();
        long now = Clock.nowSeconds();
        try {
            commands.sendAndWait(new CreateOrganisationCommand(organisation, "Default organisation", admin, email,
                    Secrets.PASSWORDS.encode(password), Role.SYSTEM_ADMIN, admin.value(), now));
            if (!apiKey.isBlank()) {
                commands.sendAndWait(new IssueApiKeyCommand(admin, ApiKeyId.generate(), organisation.value(),
                        "bootstrap", Secrets.hashApiKey(apiKey.trim()), now));
            }
            log.info("Bootstrapped the default organisation {} with system administrator {}", organisation, email);
        } catch (RuntimeException e) {
            // Another replica may have bootstrapped at the same moment; the unique email settles it.
            log.warn("Bootstrap did not complete: {}", e.getMessage());
        }
    }
}
