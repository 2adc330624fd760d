package ai.convo.command.callcounter;

import java.util.Collection;
import java.util.Set;

/**
 * The callIds each organisation has used. Claiming is atomic and happens in the command's own transaction:
 * a callId is claimed exactly once per organisation, even by concurrent batches (the second waits for the
 * first to commit and then finds it taken), and a batch that fails releases its claims with its rollback.
 */
interface CallIdClaims {

    /** Claims the callIds for the batch and answers those that were free, i.e. the records that are new. */
    Set<String> claim(String organisationId, String batchId, Collection<String> callIds);
}
