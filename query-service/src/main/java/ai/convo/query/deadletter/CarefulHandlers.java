package ai.convo.query.deadletter;

import ai.convo.persistence.BatchingJdbcTemplate;
import ai.convo.persistence.CarefulProjections;
import java.sql.Connection;
import java.sql.Savepoint;
import javax.sql.DataSource;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.annotation.HandlerEnhancerDefinition;
import org.axonframework.messaging.annotation.MessageHandlingMember;
import org.axonframework.messaging.annotation.WrappedMessageHandlingMember;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Applies an event handler's writes at once, under a savepoint, while {@link CarefulProjections} says so: a write the
 * database refuses then fails in the handler (where the dead-letter queue parks the event's sequence) and is rolled
 * back to the savepoint, so the transaction stays usable for the dead letter and the rest of the batch. Otherwise the
 * writes wait for the batch's commit as before (a refused one fails the batch, which makes the next one careful).
 */
class CarefulHandlers implements HandlerEnhancerDefinition {

    private final CarefulProjections careful;
    private final BatchingJdbcTemplate jdbc;
    private final DataSource dataSource;

    CarefulHandlers(CarefulProjections careful, BatchingJdbcTemplate jdbc, DataSource dataSource) {
        this.careful = careful;
        this.jdbc = jdbc;
        this.dataSource = dataSource;
    }

    @Override
    public <T> MessageHandlingMember<T> wrapHandler(MessageHandlingMember<T> original) {
        if (!original.canHandleMessageType(EventMessage.class)) {
            return original;
        }
        return new WrappedMessageHandlingMember<>(original) {
            @Override
            public Object handle(Message<?> message, T target) throws Exception {
                if (!careful.now() || !TransactionSynchronizationManager.isActualTransactionActive()) {
                    return super.handle(message, target);
                }
                // what earlier handlers of the batch held back goes before the savepoint
                jdbc.flush();
                Connection connection = DataSourceUtils.getConnection(dataSource);
                Savepoint savepoint = connection.setSavepoint();
                try {
                    Object result = super.handle(message, target);
                    jdbc.flush();
                    connection.releaseSavepoint(savepoint);
                    return result;
                } catch (Exception | Error e) {
                    jdbc.discard();
                    connection.rollback(savepoint);
                    throw e;
                } finally {
                    DataSourceUtils.releaseConnection(connection, dataSource);
                }
            }
        };
    }
}
