package ai.convo.command.intent;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.DetachIntentFromParentCommand;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/**
 * The children of a deleted intent become root intents: each gets an IntentUpdatedEvent (parentIntentId
 * null) from its own aggregate. This runs in the write-side lookups' subscribing processor, so the detach
 * commands are nested in the deleting command's unit of work and transaction: the deletion and every
 * detachment commit together, or nothing does.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class IntentChildren {

    private final IntentLookup lookup;
    private final CommandGateway commands;

    public IntentChildren(IntentLookup lookup, @Lazy CommandGateway commands) {
        this.lookup = lookup;
        this.commands = commands;
    }

    @EventHandler
    void on(IntentDeletedEvent event, @MetaDataValue(CommandSideProcessing.CONSEQUENCES_PLANNED) Boolean planned) {
        if (Boolean.TRUE.equals(planned)) {
            return;
        }
        for (String child : lookup.childrenOf(event.intentId())) {
            commands.sendAndWait(new DetachIntentFromParentCommand(IntentId.of(child), FlowId.of(event.flowId()),
                    IntentId.of(event.intentId()), event.deletedBy(), event.deletedAt()));
        }
    }
}
