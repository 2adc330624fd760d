package ai.convo.command.state;

import ai.convo.command.web.CommandSideProcessing;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.state.RemoveDeletedIntentFromStatesCommand;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.context.annotation.Lazy;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A deleted intent leaves every state of its flow: the flow aggregate is told in the same transaction as the
 * intent's deletion (subscribing processor), so no state ever names an intent that no longer exists.
 * Nothing is sent when the flow itself is gone (deleted, or its project deleted): its states went with it.
 */
@Component
@ProcessingGroup(CommandSideProcessing.LOOKUPS)
class StateIntentCleanup {

    private final CommandGateway commands;
    private final JdbcTemplate jdbc;

    public StateIntentCleanup(@Lazy CommandGateway commands, JdbcTemplate jdbc) {
        this.commands = commands;
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(IntentDeletedEvent event, @MetaDataValue(CommandSideProcessing.CONSEQUENCES_PLANNED) Boolean planned) {
        if (Boolean.TRUE.equals(planned)) {
            return; // a snapshot restore's plan sets every state's intents itself
        }
        boolean flowExists = !jdbc.queryForList("SELECT 1 FROM cmd_flow_lookup WHERE flow_id = ?", Integer.class,
                event.flowId()).isEmpty();
        if (!flowExists) {
            return;
        }
        commands.sendAndWait(new RemoveDeletedIntentFromStatesCommand(FlowId.of(event.flowId()),
                IntentId.of(event.intentId()), event.deletedBy(), event.deletedAt()));
    }
}
