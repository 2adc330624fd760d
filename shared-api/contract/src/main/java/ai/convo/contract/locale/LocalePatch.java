package ai.convo.contract.locale;

/**
 * The fields of a locale PATCH. A null means "leave unchanged"; the fallback additionally
 * distinguishes an explicit JSON null (clear it) through {@code fallbackPresent}.
 */
public record LocalePatch(
        String name,
        Boolean primary,
        NluLanguage nluLanguage,
        boolean fallbackPresent,
        LocaleId fallbackLocaleReference) {

    public static LocalePatch empty() {
        return new LocalePatch(null, null, null, false, null);
    }
}
