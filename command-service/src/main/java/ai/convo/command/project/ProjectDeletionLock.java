package ai.convo.command.project;

import ai.convo.contract.project.DeleteProjectCommand;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Locks the project's row of cmd_project_lookup before a deletion is handled, in the command's transaction. The
 * deletion's handlers then remove the project's children (flows, locales, ...) and its row last; a restore or a
 * copy locks the project's row first and then its flows. Taking the project's row first here too keeps one order,
 * so a deletion beside a running restore waits for it instead of deadlocking with it.
 */
@Component
class ProjectDeletionLock implements MessageHandlerInterceptor<CommandMessage<?>> {

    private final JdbcTemplate jdbc;

    ProjectDeletionLock(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain chain) throws Exception {
        if (unitOfWork.getMessage().getPayload() instanceof DeleteProjectCommand delete) {
            jdbc.queryForList("SELECT project_id FROM cmd_project_lookup WHERE project_id = ? FOR UPDATE",
                    String.class, delete.projectId().value());
        }
        return chain.proceed();
    }
}
