package ai.convo.command.web;

import ai.convo.contract.common.DomainException;
import ai.convo.http.security.ApiPrincipal;
import ai.convo.persistence.AppendedPositions;
import ai.convo.persistence.AppendingPrincipal;
import ai.convo.persistence.EventPositions;
import ai.convo.persistence.EventWakeups;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Sends commands off the Netty event loop: the command bus runs the handler and the JDBC append on the
 * caller's thread. Answers the handler's result and the global position of the newest event written.
 * Every command sent here is recorded as a write of the authenticated principal ({@link AppendingPrincipal}), so that
 * principal's later reads reflect it on every query replica.
 * <p>
 * Two command replicas may decide on one aggregate at once; the second append then fails on the aggregate's
 * sequence number and its whole transaction rolls back. Such a command is sent again (it reloads the aggregate and
 * decides anew), up to {@link #ATTEMPTS} times; only then is the conflict the client's, as a 409. A command, once
 * running, is never interrupted because its client went away: it commits or rolls back as a whole.
 * <p>
 * A command to one aggregate waits for the one before it to end before it is sent ({@link AggregateTurns}), so no
 * command of this replica holds a transaction and a pooled connection while it waits for an aggregate's lock.
 */
@Component
public class Commands {

    public record Sent<R>(R result, Long position) {
    }

    /** Commands run here: a cancelled subscription does not dispose (so does not interrupt) the running task. */
    private static final Executor COMMAND_THREADS = task -> Schedulers.boundedElastic().schedule(task);

    private static final CommandTargetResolver TARGETS = AnnotationCommandTargetResolver.builder().build();

    private final CommandGateway gateway;
    private final AggregateTurns turns = new AggregateTurns();
    private final EventPositions positions;
    private final TransactionTemplate transactions;
    private final EventWakeups wakeups;

    public Commands(CommandGateway gateway, EventPositions positions, PlatformTransactionManager transactions,
                    EventWakeups wakeups) {
        this.gateway = gateway;
        this.positions = positions;
        this.transactions = new TransactionTemplate(transactions);
        this.wakeups = wakeups;
    }

    public <R> Mono<Sent<R>> send(Object command, String... aggregateIds) {
        return sendReadBy(null, command, aggregateIds);
    }

    /**
     * Like {@link #send}, to an aggregate found first by a blocking look-up (a child's id to its parent's), in the
     * same hop off the event loop: a look-up in a hop of its own cost a thread hand-off there and back per command.
     */
    public <R> Mono<Sent<R>> sendTo(Callable<String> aggregateOf, java.util.function.Function<String, Object> command) {
        return principalKeys(null).flatMap(keys -> awaited(() -> CompletableFuture.supplyAsync(unchecked(() -> {
                    String aggregateId = aggregateOf.call();
                    Object message = command.apply(aggregateId);
                    // on this thread when the aggregate has no command running: no second hand-off
                    return turns.run(targetOf(message), unchecked(() -> AppendingPrincipal.as(keys,
                                    () -> this.<R>sendDecidingAgain(message, List.of(aggregateId)))),
                            Runnable::run, COMMAND_THREADS);
                }), COMMAND_THREADS).thenCompose(sent -> sent)))
                .onErrorMap(Commands::translate);
    }

    /**
     * Like {@link #send}, and the write is also one every reader of {@code publicKey} waits for: for what a public
     * route (no principal) shows, such as the current system message ({@link ai.convo.persistence.PrincipalKeys}).
     */
    public <R> Mono<Sent<R>> sendReadBy(String publicKey, Object command, String... aggregateIds) {
        String target = targetOf(command);
        return principalKeys(publicKey).flatMap(keys -> awaited(() -> turns.run(target,
                        unchecked(() -> AppendingPrincipal.as(keys,
                                () -> this.<R>sendDecidingAgain(command, List.of(aggregateIds)))),
                        COMMAND_THREADS, COMMAND_THREADS)))
                .onErrorMap(Commands::translate);
    }

    /**
     * Sends commands one after another inside one database transaction, for a batch over several aggregates. Each is
     * a command of its own: its events are stored and the write-side lookups updated (in the open transaction) before
     * the next one is decided, so a later command sees what an earlier one did. All of them commit together, or none
     * does; a conflict with another writer decides the whole batch again. Answers each command's result, in order.
     */
    public Mono<Sent<List<Object>>> sendTogether(List<?> commands, List<String> labels, Collection<String> aggregateIds) {
        return principalKeys(null).flatMap(keys -> uninterrupted(() -> AppendingPrincipal.as(keys, () -> {
                    try {
                        AppendedPositions.track();
                        List<Object> results = together(commands, labels);
                        return new Sent<>(results, positionOf(List.copyOf(aggregateIds)));
                    } finally {
                        AppendedPositions.take();
                    }
                })))
                .onErrorMap(Commands::translate);
    }

    /**
     * {@link #sendTogether} for work that already runs off the event loop (a Task): blocking, on the calling thread,
     * the writes recorded under {@code keys} (the user the work runs for), with the position of the newest event
     * they appended (null: none). A refusal is a DomainException naming the refused command's label.
     */
    public Sent<List<Object>> sendTogetherAs(String keys, List<?> commands, List<String> labels) {
        try {
            AppendedPositions.track();
            List<Object> results = AppendingPrincipal.as(keys, () -> together(commands, labels));
            return new Sent<>(results, AppendedPositions.take());
        } catch (RuntimeException e) {
            throw translate(e) instanceof RuntimeException translated ? translated : e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            AppendedPositions.take();
        }
    }

    /** Set while the commands of one batch run, on their thread (the command bus runs them on the caller's). */
    private static final ThreadLocal<Boolean> BATCH = new ThreadLocal<>();

    /**
     * Whether the command being handled is one of a batch sent together: a lock it takes is held until the batch
     * commits, so a lock a later command of the batch may need stronger must be taken strong at once (two batches
     * that each hold a shared lock and then both ask for the exclusive one deadlock).
     */
    public static boolean inBatch() {
        return Boolean.TRUE.equals(BATCH.get());
    }

    private List<Object> together(List<?> commands, List<String> labels) {
        BATCH.set(true);
        try {
            return togetherInBatch(commands, labels);
        } finally {
            BATCH.remove();
        }
    }

    private List<Object> togetherInBatch(List<?> commands, List<String> labels) {
        // one trace for all of them, as for the commands one command sends: the batch is one audit event
        String trace = java.util.UUID.randomUUID().toString();
        List<Object> results = DecidingAgain.run(() -> transactions.execute(status -> {
            AppendedPositions.restart();
            List<Object> each = new ArrayList<>();
            for (int i = 0; i < commands.size(); i++) {
                try {
                    each.add(gateway.sendAndWait(GenericCommandMessage.asCommandMessage(commands.get(i))
                            .andMetaData(java.util.Map.of("traceId", trace))));
                } catch (RuntimeException e) {
                    // a refusal names the command that was refused; a lost race is decided again, whole: translate
                    // would make it a 409 refusal, which DecidingAgain never retries
                    if (!DecidingAgain.lostTheRace(e) && translate(e) instanceof DomainException refused) {
                        throw new DomainException(refused.kind(), labels.get(i) + ": " + refused.detail()
                                + " No operation of the batch was applied.", labeled(refused, i));
                    }
                    throw e;
                }
            }
            return each;
        }));
        // each command woke the processors when its unit of work ended, before this commit made it visible
        wakeups.raise();
        return results;
    }

    private static java.util.Map<String, Object> labeled(DomainException refused, int index) {
        java.util.Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("operation", index);
        details.putAll(refused.details());
        return details;
    }

    /** For blocking work (JDBC lookups, commands sent directly) that must also stay off the event loop. */
    public <T> Mono<T> blocking(Callable<T> work) {
        return principalKeys(null)
                .flatMap(keys -> uninterrupted(() -> AppendingPrincipal.as(keys, work)))
                .onErrorMap(Commands::translate);
    }

    /** Sends the command (again on a conflict), and answers its result with the position of what it appended. */
    private <R> Sent<R> sendDecidingAgain(Object command, List<String> aggregateIds) {
        try {
            AppendedPositions.track();
            R result = DecidingAgain.run(() -> {
                AppendedPositions.restart();
                return gateway.<R>sendAndWait(command);
            });
            return new Sent<>(result, positionOf(aggregateIds));
        } finally {
            AppendedPositions.take();
        }
    }

    /**
     * The newest event appended here, read from the append itself; when nothing was appended (a command that changed
     * nothing), the newest event of the aggregates, as a query.
     */
    private Long positionOf(List<String> aggregateIds) {
        Long appended = AppendedPositions.take();
        return appended != null ? appended : positions.latestOf(aggregateIds);
    }

    private static <T> Mono<T> uninterrupted(Callable<T> work) {
        return awaited(() -> CompletableFuture.supplyAsync(unchecked(work), COMMAND_THREADS));
    }

    /** The future's outcome; cancelling the subscription leaves the work running (see COMMAND_THREADS). */
    private static <T> Mono<T> awaited(java.util.function.Supplier<CompletableFuture<T>> future) {
        return Mono.fromFuture(future, true)
                .onErrorMap(CompletionException.class, e -> e.getCause() == null ? e : e.getCause());
    }

    private static <T> java.util.function.Supplier<T> unchecked(Callable<T> work) {
        return () -> {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        };
    }

    /** The aggregate a command is sent to, or null for one that names none (it then waits for no turn). */
    static String targetOf(Object command) {
        try {
            return TARGETS.resolveTarget(GenericCommandMessage.asCommandMessage(command)).getIdentifier();
        } catch (IllegalArgumentException namesNone) {
            return null;
        }
    }

    /** The keys a write is recorded under: the caller's user id, and a public key if given. */
    private static Mono<String> principalKeys(String publicKey) {
        String extra = publicKey == null ? "" : publicKey;
        return ReactiveSecurityContextHolder.getContext()
                .map(context -> context.getAuthentication() != null
                        && context.getAuthentication().getPrincipal() instanceof ApiPrincipal principal
                        ? (extra.isEmpty() ? principal.userId() : principal.userId() + "," + extra) : extra)
                .defaultIfEmpty(extra);
    }

    static Throwable translate(Throwable error) {
        Throwable cause = error instanceof CommandExecutionException && error.getCause() != null ? error.getCause() : error;
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DomainException) {
                return t;
            }
        }
        if (cause instanceof AggregateNotFoundException notFound) {
            return DomainException.notFound("No resource with id " + notFound.getAggregateIdentifier() + " exists.");
        }
        if (cause instanceof ConcurrencyException) {
            return DomainException.conflict("The resource was changed by another request at the same moment; retry.");
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DuplicateKeyException) {
                return DomainException.conflict("The change conflicts with a resource created at the same moment; retry.");
            }
        }
        return cause;
    }
}
