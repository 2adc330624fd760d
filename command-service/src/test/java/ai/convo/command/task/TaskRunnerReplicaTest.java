package ai.convo.command.task;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.command.CommandServiceApplication;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.Ids;
import ai.convo.contract.identity.Role;
import ai.convo.contract.locale.LocaleId;
import ai.convo.contract.locale.NluLanguage;
import ai.convo.contract.project.CreateProjectCommand;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.TaskId;
import ai.convo.testing.ServiceProperties;
import ai.convo.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Several runners ("replicas") on one database, each built as the service builds its own, in a service whose own runner
 * is off. A runner is killed as a process would be: no lease renewed or given back, nothing reported afterwards.
 */
@SpringBootTest(classes = CommandServiceApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = "app.tasks.runner.enabled=false")
@Tag("integration")
class TaskRunnerReplicaTest {

    static final TestDatabase.Settings DB = TestDatabase.newDatabase();
    static final long LEASE = 1000;
    static final long POLL = 100;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceProperties.of(DB, registry::add);
    }

    @Autowired
    TaskRuns runs;
    @Autowired
    CommandGateway gateway;
    @Autowired
    TaskSubmitter submitter;
    @Autowired
    List<TaskWork> works;
    @Autowired
    JdbcTemplate jdbc;

    private final Actor actor = new Actor(Ids.newId(), Ids.newId(), Role.ORG_ADMIN);
    private final List<TaskRunner> runners = new ArrayList<>();

    @AfterEach
    void stopRunners() {
        runners.forEach(TaskRunner::kill);
    }

    private TaskRunner runner(int maxAttempts) {
        TaskRunner runner = new TaskRunner(runs, gateway, works, new TaskRunner.Settings(LEASE, POLL, 2, maxAttempts, 1000));
        runners.add(runner);
        runner.start();
        return runner;
    }

    private String project() {
        return project(actor);
    }

    private String project(Actor owner) {
        String id = Ids.newId();
        gateway.sendAndWait(new CreateProjectCommand(ProjectId.of(id), owner, "Replicas " + id, "", LocaleId.generate(),
                UUID.randomUUID().toString(), NluLanguage.EN_US, 1));
        return id;
    }

    private String submit(String project, String type, Map<String, Object> parameters) {
        return submitter.submit(TaskId.generate(), type, ProjectId.of(project), parameters, actor).taskId().value();
    }

    private Map<String, Object> row(String taskId) {
        return jdbc.queryForMap("SELECT status, runner_id, attempts FROM task_run WHERE task_id = ?", taskId);
    }

    private List<String> events(String taskId) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number", String.class, taskId).stream()
                .map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }

    private static void eventually(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void givenAnOrganisationRunningATaskWithMoreQueued_whenAnotherOrganisationsTaskWaits_thenItIsClaimedNext() {
        // given: organisation A's two tasks (two projects) queued before organisation B's one; no runner started
        Actor other = new Actor(Ids.newId(), Ids.newId(), Role.ORG_ADMIN);
        String first = submit(project(), "test-gate", Map.of());
        String second = submit(project(), "test-gate", Map.of());
        String theirs = submitter.submit(TaskId.generate(), "test-gate", ProjectId.of(project(other)), Map.of(), other)
                .taskId().value();

        // when: runners claim one task after another, each holding what it claimed
        List<String> claimed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.claim("fair-" + i, 60_000).ifPresent(claim -> claimed.add(claim.taskId()));
        }

        // then: A's first, then B's (A already runs one), then A's second
        assertThat(claimed).containsExactly(first, theirs, second);
        jdbc.update("UPDATE task_run SET status = 'done', lease_until = NULL WHERE task_id IN (?, ?, ?)", first, second,
                theirs);
    }

    @Test
    void givenLongRunningTasks_thenTheyHaveTheirOwnLaneNeitherHoldUpTheirProjectNorExceedTheOrganisationsShare() {
        // given: organisation A queues three long-running tasks, then a short one in the same project; B one long one
        Actor other = new Actor(Ids.newId(), Ids.newId(), Role.ORG_ADMIN);
        String project = project();
        List<String> longOnes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            longOnes.add(submit(project, "test-long", Map.of()));
        }
        String shortOne = submit(project, "test-gate", Map.of());
        String theirs = submitter.submit(TaskId.generate(), "test-long", ProjectId.of(project(other)), Map.of(), other)
                .taskId().value();
        TaskRuns.Lane shortLane = new TaskRuns.Lane(Set.of("test-long"), false, Integer.MAX_VALUE);
        TaskRuns.Lane longLane = new TaskRuns.Lane(Set.of("test-long"), true, 2);

        // when / then: the short lane takes the short task at once (the long ones queued before it do not hold it up)
        assertThat(runs.claim("lane-short", 60_000, shortLane).map(TaskRuns.Claim::taskId)).contains(shortOne);
        assertThat(runs.claim("lane-short", 60_000, shortLane)).isEmpty();
        // and the long lane takes B's first (A already runs a task), then two of A's, then nothing: A has its share
        List<String> claimed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            runs.claim("lane-long-" + i, 60_000, longLane).ifPresent(claim -> claimed.add(claim.taskId()));
        }
        assertThat(claimed).containsExactly(theirs, longOnes.get(0), longOnes.get(1));
        jdbc.update("UPDATE task_run SET status = 'done', lease_until = NULL WHERE task_id IN (?, ?, ?, ?, ?)",
                longOnes.get(0), longOnes.get(1), longOnes.get(2), shortOne, theirs);
    }

    @Test
    void givenOnePerOrganisationTasksInTwoProjects_thenTheSecondWaitsInTheQueueWhileAnotherOrganisationsRuns() {
        // given: organisation A queues two such tasks in two projects (not ordered by a project), then B one
        Actor other = new Actor(Ids.newId(), Ids.newId(), Role.ORG_ADMIN);
        String first = submit(project(), "test-one", Map.of());
        String second = submit(project(), "test-one", Map.of());
        String theirs = submitter.submit(TaskId.generate(), "test-one", ProjectId.of(project(other)), Map.of(), other)
                .taskId().value();
        TaskRuns.Lane lane = new TaskRuns.Lane(Set.of(), false, Integer.MAX_VALUE, Set.of("test-one"));

        // when: runners claim while they have threads
        List<String> claimed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.claim("one-" + i, 60_000, lane).ifPresent(claim -> claimed.add(claim.taskId()));
        }

        // then: A's first and B's; A's second is not claimed (no thread waits for A's parse) until A's first ends
        assertThat(claimed).containsExactly(first, theirs);
        jdbc.update("UPDATE task_run SET status = 'done', lease_until = NULL WHERE task_id = ?", first);
        assertThat(runs.claim("one-3", 60_000, lane).map(TaskRuns.Claim::taskId)).contains(second);
        jdbc.update("UPDATE task_run SET status = 'done', lease_until = NULL WHERE task_id IN (?, ?)", second, theirs);
    }

    @Test
    void givenARunnerKilledMidTask_whenItsLeaseExpires_thenAnotherRunnerTakesOverWithinLeasePlusPollAndFinishes()
            throws Exception {
        // given: the first replica runs a task that blocks at its gate
        TaskRunner first = runner(3);
        String task = submit(project(), "test-gate", Map.of());
        assertThat(TestWorks.awaitArrival(task, 20_000)).isTrue();
        assertThat(row(task)).containsEntry("status", "active").containsEntry("runner_id", first.runnerId())
                .containsEntry("attempts", 1);
        // when: it dies abruptly while a second replica is up
        first.kill();
        long killed = System.nanoTime();
        TaskRunner second = runner(3);
        eventually(() -> second.runnerId().equals(row(task).get("runner_id"))
                && Integer.valueOf(2).equals(row(task).get("attempts")), "the takeover");
        long takeoverMillis = Duration.ofNanos(System.nanoTime() - killed).toMillis();
        // then: within the lease (at most LEASE after the last renewal) plus a poll, with some slack for a busy machine
        assertThat(takeoverMillis).isLessThan(LEASE + POLL + 1500);
        TestWorks.open(task);
        eventually(() -> "done".equals(row(task).get("status")), "done");
        assertThat(events(task)).containsSubsequence("TaskStartedEvent", "TaskStartedEvent", "TaskCompletedEvent")
                .filteredOn("TaskStartedEvent"::equals).hasSize(2);
        assertThat(TestWorks.starts(task)).isEqualTo(2);
        // the killed runner's thread went on after the gate opened, but reported nothing
        assertThat(events(task).subList(events(task).size() - 1, events(task).size())).containsExactly("TaskCompletedEvent");
        System.out.println("takeover after kill: " + takeoverMillis + " ms (lease " + LEASE + " ms, poll " + POLL + " ms)");
    }

    @Test
    void givenRunnersThatKeepDying_whenTheAttemptsAreUsedUp_thenErrorWithAReasonInsteadOfActiveForever() throws Exception {
        // given
        String task = submit(project(), "test-gate", Map.of());
        TaskRunner first = runner(2);
        assertThat(TestWorks.awaitArrival(task, 20_000)).isTrue();
        first.kill();
        TaskRunner second = runner(2);
        eventually(() -> Integer.valueOf(2).equals(row(task).get("attempts")), "attempt 2");
        second.kill();
        // when
        runner(2);
        // then
        eventually(() -> "error".equals(row(task).get("status")), "error");
        String failed = jdbc.queryForObject("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE "
                + "aggregate_identifier = ? AND payload_type LIKE '%TaskFailedEvent'", String.class, task);
        assertThat(failed).contains("The runner stopped responding 2 times");
        assertThat(row(task)).containsEntry("runner_id", null);
        TestWorks.open(task);
    }

    @Test
    void givenTwentyTasksOfFourProjects_whenTwoRunnersShareThem_thenEachRunsOnceInOrderAndAProjectNeverRunsTwoAtOnce() {
        // given
        List<String> projects = List.of(project(), project(), project(), project());
        runner(3);
        runner(3);
        List<String> tasks = new ArrayList<>();
        // when
        for (int i = 0; i < 20; i++) {
            tasks.add(submit(projects.get(i % 4), "test-steps", Map.of("steps", 2, "stepMillis", 20)));
        }
        // then
        tasks.forEach(task -> eventually(() -> "done".equals(row(task).get("status")), "done " + task));
        assertThat(tasks).allSatisfy(task -> assertThat(TestWorks.starts(task)).isEqualTo(1));
        List<TestWorks.RunRecord> runs = TestWorks.RUNS.stream().filter(r -> tasks.contains(r.taskId())).toList();
        assertThat(runs).hasSize(20);
        for (String project : projects) {
            List<TestWorks.RunRecord> ofProject = runs.stream().filter(r -> r.projectId().equals(project))
                    .sorted(Comparator.comparingLong(TestWorks.RunRecord::startedNanos)).toList();
            assertThat(ofProject).extracting(TestWorks.RunRecord::taskId)
                    .containsExactlyElementsOf(tasks.stream().filter(t -> ofProject.stream()
                            .anyMatch(r -> r.taskId().equals(t))).toList());
            for (int i = 1; i < ofProject.size(); i++) {
                assertThat(ofProject.get(i).startedNanos()).as("no overlap in project " + project)
                        .isGreaterThanOrEqualTo(ofProject.get(i - 1).endedNanos());
            }
        }
        Set<String> runnerThreads = runs.stream().map(r -> r.thread().replaceAll("-\\d+$", ""))
                .collect(Collectors.toSet());
        assertThat(runnerThreads).as("both replicas ran tasks").hasSize(2);
    }
}
