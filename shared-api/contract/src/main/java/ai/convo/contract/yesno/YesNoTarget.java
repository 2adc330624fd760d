package ai.convo.contract.yesno;

/**
 * Where a yes/no intent lives, as the controller found it visible to the caller: the locale, its project, its
 * nluLanguage now (for a first seed) and the kind. The aggregate takes it on its first command.
 */
public record YesNoTarget(String localeId, String projectId, String nluLanguage, YesNoKind kind) {
}
