package ai.convo.command.web;

import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every write-side lookup (classes in {@link #LOOKUPS}) runs in the command's own transaction: a subscribing
 * processor, and a failure there (e.g. a unique index) fails the command and stores nothing.
 */
@Configuration(proxyBeanMethods = false)
public class CommandSideProcessing {

    public static final String LOOKUPS = "write-lookups";

    /**
     * Metadata of a deletion whose consequences its author planned itself (a snapshot restore sets every kept
     * intent's parent and every state's intents): then the lookups' handlers change neither children nor states.
     */
    public static final String CONSEQUENCES_PLANNED = "childrenPlanned";

    @Bean
    ConfigurerModule subscribingLookups() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSubscribingEventProcessor(LOOKUPS)
                .registerListenerInvocationErrorHandler(LOOKUPS, config -> PropagatingErrorHandler.instance()));
    }
}
