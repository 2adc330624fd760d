package ai.convo.contract.project;

/** The fields of a project PATCH. A null means "leave unchanged"; an empty color clears it. */
public record ProjectPatch(String name, String color) {
}
