package ai.convo.command.web;

import ai.convo.command.identity.IdentityLookup;
import ai.convo.command.locale.LocaleLookup;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The write side's lookups run in the command's own transaction, and a failure there fails the command. */
@Configuration(proxyBeanMethods = false)
public class CommandSideProcessing {

    @Bean
    ConfigurerModule subscribingLookups() {
        return configurer -> configurer.eventProcessing(processing -> {
            for (String group : new String[] {IdentityLookup.GROUP, LocaleLookup.GROUP}) {
                processing.registerSubscribingEventProcessor(group);
                processing.registerListenerInvocationErrorHandler(group, config -> PropagatingErrorHandler.instance());
            }
        });
    }
}
