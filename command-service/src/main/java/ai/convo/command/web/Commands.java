package ai.convo.command.web;

import ai.convo.contract.common.DomainException;
import ai.convo.persistence.EventPositions;
import java.util.List;
import java.util.concurrent.Callable;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Sends commands off the Netty event loop: the command bus runs the handler and the JDBC append on the
 * caller's thread. Answers the handler's result and the global position of the newest event written.
 */
@Component
public class Commands {

    public record Sent<R>(R result, Long position) {
    }

    private final CommandGateway gateway;
    private final EventPositions positions;

    public Commands(CommandGateway gateway, EventPositions positions) {
        this.gateway = gateway;
        this.positions = positions;
    }

    public <R> Mono<Sent<R>> send(Object command, String... aggregateIds) {
        return Mono.fromCallable(() -> {
                    R result = gateway.sendAndWait(command);
                    return new Sent<>(result, positions.latestOf(List.of(aggregateIds)));
                })
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorMap(Commands::translate);
    }

    /** For blocking lookups (JDBC) that must also stay off the event loop. */
    public <T> Mono<T> blocking(Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(Schedulers.boundedElastic()).onErrorMap(Commands::translate);
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
