package ai.convo.contract.yesno;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The built-in sentences a locale's yes/no intents start with, for the languages written here by hand (en, de, es,
 * fr, by the locale's nluLanguage); any other language starts empty and its users add their own. Changing these
 * lists changes only locales seeded later: a seed is stored in the seeding event.
 */
public final class YesNoSeeds {

    private static final Map<String, Map<YesNoKind, List<String>>> BY_LANGUAGE = Map.of(
            "en", Map.of(
                    YesNoKind.YES, List.of("yes", "yeah", "yep", "sure", "of course", "absolutely", "correct",
                            "that's right", "ok", "okay", "definitely", "yes please", "sounds good", "I do",
                            "affirmative", "right"),
                    YesNoKind.NO, List.of("no", "nope", "nah", "no thanks", "not really", "absolutely not",
                            "no way", "I don't think so", "negative", "not at all", "certainly not", "I do not",
                            "wrong", "that's not right"),
                    YesNoKind.REJECT, List.of("I don't know", "maybe", "stop", "cancel", "I'm not sure",
                            "what do you mean", "let me think", "talk to a human", "neither", "can you repeat that",
                            "never mind", "something else")),
            "de", Map.of(
                    YesNoKind.YES, List.of("ja", "jawohl", "genau", "klar", "natürlich", "sicher", "richtig",
                            "stimmt", "okay", "gerne", "ja bitte", "auf jeden Fall", "einverstanden", "korrekt"),
                    YesNoKind.NO, List.of("nein", "nee", "nö", "nein danke", "auf keinen Fall", "lieber nicht",
                            "stimmt nicht", "falsch", "gar nicht", "keineswegs", "nicht wirklich", "niemals"),
                    YesNoKind.REJECT, List.of("weiß ich nicht", "vielleicht", "stopp", "abbrechen",
                            "ich bin nicht sicher", "wie bitte", "was meinen Sie", "keine Ahnung",
                            "mit einem Menschen sprechen", "etwas anderes")),
            "es", Map.of(
                    YesNoKind.YES, List.of("sí", "claro", "por supuesto", "vale", "de acuerdo", "correcto",
                            "exacto", "sí por favor", "desde luego", "seguro", "está bien", "afirmativo"),
                    YesNoKind.NO, List.of("no", "no gracias", "para nada", "de ninguna manera", "nunca",
                            "claro que no", "incorrecto", "no es así", "tampoco", "negativo"),
                    YesNoKind.REJECT, List.of("no sé", "quizás", "tal vez", "para", "cancelar", "no estoy seguro",
                            "¿cómo?", "repite por favor", "hablar con una persona", "otra cosa")),
            "fr", Map.of(
                    YesNoKind.YES, List.of("oui", "ouais", "bien sûr", "d'accord", "exactement", "tout à fait",
                            "c'est exact", "volontiers", "oui merci", "absolument", "certainement", "ok"),
                    YesNoKind.NO, List.of("non", "non merci", "pas du tout", "jamais", "certainement pas",
                            "absolument pas", "c'est faux", "pas vraiment", "hors de question", "nan"),
                    YesNoKind.REJECT, List.of("je ne sais pas", "peut-être", "arrête", "annuler",
                            "je ne suis pas sûr", "pardon ?", "vous pouvez répéter", "parler à quelqu'un",
                            "autre chose", "aucune idée")));

    private YesNoSeeds() {
    }

    /** The languages with built-in sentences. */
    public static List<String> languages() {
        return BY_LANGUAGE.keySet().stream().sorted().toList();
    }

    /** The built-in sentences of this kind for a locale of this nluLanguage ("en-US" reads as "en"), with their ids. */
    public static List<YesNoSentence> sentences(YesNoIntentId intentId, YesNoKind kind, String nluLanguage) {
        String language = nluLanguage == null ? "" : nluLanguage.toLowerCase(Locale.ROOT).split("[-_]")[0];
        List<String> texts = BY_LANGUAGE.getOrDefault(language, Map.of()).getOrDefault(kind, List.of());
        List<YesNoSentence> sentences = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            sentences.add(new YesNoSentence(intentId.builtInSentenceId(i), texts.get(i)));
        }
        return sentences;
    }
}
