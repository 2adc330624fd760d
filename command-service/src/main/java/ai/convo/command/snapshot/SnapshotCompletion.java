package ai.convo.command.snapshot;

import ai.convo.command.web.Clock;
import ai.convo.command.web.DecidingAgain;
import ai.convo.contract.snapshot.AbandonSnapshotCommand;
import ai.convo.contract.snapshot.CompleteSnapshotCommand;
import ai.convo.contract.snapshot.SnapshotCounts;
import ai.convo.contract.snapshot.SnapshotId;
import ai.convo.contract.snapshot.SnapshotRegistryId;
import ai.convo.contract.snapshot.SnapshotResource;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How a task ends a pending snapshot, whichever way its content was obtained (captured, or uploaded in a package):
 * the content and the completion in one transaction, so a repeated run keeps content already stored; or, when the
 * task fails or is cancelled, an abandon that frees the slot.
 */
@Component
class SnapshotCompletion {

    private final JdbcTemplate jdbc;
    private final CommandGateway commands;
    private final TransactionTemplate write;

    SnapshotCompletion(JdbcTemplate jdbc, CommandGateway commands, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.write = new TransactionTemplate(transactions);
    }

    /** Stores the canonical content and completes the snapshot; {@code alsoThen} runs in the same transaction. */
    void complete(SnapshotRegistryId registry, SnapshotId snapshotId, SnapshotContent content, byte[] bytes,
                  List<SnapshotResource> resources, long at, Runnable alsoThen) {
        String hash = SnapshotCodec.hash(bytes);
        SnapshotCounts counts = new SnapshotCounts(content.locales().size(), content.tokens().size(),
                content.functions().size(), content.flows().size(), content.states(), content.intents(),
                content.sentences());
        // the project's registry may take another request of it at the same moment (on any replica)
        DecidingAgain.run(() -> write.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO cmd_snapshot_content (snapshot_id, hash, content) VALUES (?, ?, ?) "
                    + "ON CONFLICT (snapshot_id) DO NOTHING", snapshotId.value(), hash, bytes);
            alsoThen.run();
            commands.sendAndWait(new CompleteSnapshotCommand(registry, snapshotId, hash, counts, at, resources));
        }));
    }

    /** Frees the slot; a snapshot that was completed after all stays (the registry ignores the abandon). */
    void abandon(SnapshotRegistryId registry, SnapshotId snapshotId, String reason) {
        DecidingAgain.run(() -> commands.sendAndWait(new AbandonSnapshotCommand(registry, snapshotId, reason,
                Clock.nowSeconds())));
    }
}
