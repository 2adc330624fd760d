package ai.convo.command.callcounter;

import java.util.Collection;
import java.util.Map;

/** Which organisation each project belongs to, for the rule "a call record names a project of its organisation". */
interface ProjectOwners {

    /** The owner of each of these projects that exists; unknown projects are absent from the answer. */
    Map<String, String> ownersOf(Collection<String> projectIds);
}
