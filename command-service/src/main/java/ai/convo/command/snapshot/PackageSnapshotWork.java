package ai.convo.command.snapshot;

import ai.convo.command.task.TaskContext;
import ai.convo.command.task.TaskWork;
import ai.convo.command.web.Clock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** The packageSnapshot task: builds the snapshot's package (SnapshotPackages) and keeps it for download links. */
@Component
class PackageSnapshotWork implements TaskWork {

    static final String TYPE = "packageSnapshot";

    private final SnapshotPackages packages;
    private final JdbcTemplate jdbc;

    PackageSnapshotWork(SnapshotPackages packages, JdbcTemplate jdbc) {
        this.packages = packages;
        this.jdbc = jdbc;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public void run(TaskContext context) {
        String snapshotId = String.valueOf(context.parameters().get("snapshotId"));
        context.totalSteps(1);
        byte[] built = packages.build(snapshotId);
        // a snapshot's content never changes, so packaging again (a runner that died, a second request) is the same
        jdbc.update("INSERT INTO cmd_snapshot_package (snapshot_id, package, packaged_at) VALUES (?, ?, ?) "
                + "ON CONFLICT (snapshot_id) DO UPDATE SET package = EXCLUDED.package, packaged_at = EXCLUDED.packaged_at",
                snapshotId, built, Clock.nowSeconds());
        context.stepDone(1);
    }
}
