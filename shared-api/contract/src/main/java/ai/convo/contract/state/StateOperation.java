package ai.convo.contract.state;

import ai.convo.contract.common.BatchOperations.Op;

/** One operation of a state batch: exactly the command its own request would send (the others null). */
public record StateOperation(Op op, CreateStateCommand create, UpdateStateCommand update, DeleteStateCommand delete) {

    public static StateOperation create(CreateStateCommand command) {
        return new StateOperation(Op.CREATE, command, null, null);
    }

    public static StateOperation update(UpdateStateCommand command) {
        return new StateOperation(Op.UPDATE, null, command, null);
    }

    public static StateOperation delete(DeleteStateCommand command) {
        return new StateOperation(Op.DELETE, null, null, command);
    }

    /** The state it creates, updates or deletes. */
    public String stateId() {
        return switch (op) {
            case CREATE -> create.stateId().value();
            case UPDATE -> update.stateId().value();
            case DELETE -> delete.stateId().value();
        };
    }
}
