package ai.convo.command.snapshot;

import ai.convo.contract.slotfiller.SlotFillerSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The templates this server ships for createProjectByTemplate (the client carries only template metadata, no
 * content). {@code empty}: the project with its primary locale and nothing else. {@code support}: a small support
 * bot, one flow with four intents (five example sentences each, in the project's language) and two slot fillers.
 * A template's content is snapshot content, applied as a restore is: the same events, with the caller as author.
 * Its referenceIds derive from the project's id, so applying it twice to one project changes nothing the second time.
 */
final class ProjectTemplates {

    static final String EMPTY = "empty";
    static final String SUPPORT = "support";
    static final List<String> NAMES = List.of(EMPTY, SUPPORT);

    /** The support bot's sentences per language family (the part of the code before the dash). */
    private static final Map<String, Map<String, List<String>>> SUPPORT_SENTENCES = Map.of(
            "en", intents(
                    List.of("hello", "hi there", "good morning", "hey, can you help me", "good evening"),
                    List.of("when are you open", "what are your opening hours", "are you open on sunday",
                            "until when can I call you", "what time do you close"),
                    List.of("I want to talk to a human", "connect me to an agent", "can I speak to a person",
                            "I need a real person", "transfer me to support staff"),
                    List.of("bye", "goodbye", "thanks, that is all", "see you", "have a nice day")),
            "de", intents(
                    List.of("hallo", "guten Tag", "guten Morgen", "hey, kannst du mir helfen", "guten Abend"),
                    List.of("wann habt ihr geöffnet", "wie sind eure Öffnungszeiten", "habt ihr sonntags offen",
                            "bis wann kann ich anrufen", "wann schließt ihr"),
                    List.of("ich möchte mit einem Menschen sprechen", "verbinde mich mit einem Mitarbeiter",
                            "kann ich mit einer Person reden", "ich brauche einen echten Menschen",
                            "leite mich an den Support weiter"),
                    List.of("tschüss", "auf Wiedersehen", "danke, das war alles", "bis bald", "schönen Tag noch")),
            "es", intents(
                    List.of("hola", "buenos días", "buenas tardes", "oye, ¿me puedes ayudar?", "buenas noches"),
                    List.of("¿cuándo abren?", "¿cuál es su horario?", "¿abren los domingos?",
                            "¿hasta qué hora puedo llamar?", "¿a qué hora cierran?"),
                    List.of("quiero hablar con una persona", "pásame con un agente", "¿puedo hablar con alguien?",
                            "necesito una persona real", "transfiéreme a soporte"),
                    List.of("adiós", "hasta luego", "gracias, eso es todo", "nos vemos", "que tengas un buen día")));

    private static final List<String> SUPPORT_INTENTS = List.of("greeting", "openingHours", "humanHandover",
            "goodbye");

    private ProjectTemplates() {
    }

    private static Map<String, List<String>> intents(List<String> greeting, List<String> hours, List<String> human,
                                                     List<String> bye) {
        Map<String, List<String>> byIntent = new LinkedHashMap<>();
        byIntent.put("greeting", greeting);
        byIntent.put("openingHours", hours);
        byIntent.put("humanHandover", human);
        byIntent.put("goodbye", bye);
        return byIntent;
    }

    /** The languages (wire codes) a template has content for; null: every language. */
    static List<String> languagesOf(String template, List<String> allCodes) {
        if (SUPPORT.equals(template)) {
            return allCodes.stream().filter(code -> SUPPORT_SENTENCES.containsKey(family(code))).toList();
        }
        return null;
    }

    private static String family(String code) {
        return code.substring(0, code.indexOf('-'));
    }

    /** The flows of a template for a project in this language, its sentences in the primary locale. */
    static List<SnapshotContent.Flow> flows(String template, String projectId, String language,
                                            String primaryLocaleReference) {
        if (!SUPPORT.equals(template)) {
            return List.of();
        }
        Map<String, List<String>> sentences = SUPPORT_SENTENCES.get(family(language));
        List<SnapshotContent.Intent> intents = new ArrayList<>();
        for (String intent : SUPPORT_INTENTS) {
            List<SnapshotContent.Sentence> examples = sentences.get(intent).stream()
                    .map(text -> new SnapshotContent.Sentence(primaryLocaleReference, text)).toList();
            intents.add(new SnapshotContent.Intent(reference(projectId, "intent:" + intent), intent, "", List.of(),
                    false, false, null, "", List.of(), "", List.of(), Map.of(), false, null, examples));
        }
        List<SnapshotContent.SlotFiller> slotFillers = List.of(
                new SnapshotContent.SlotFiller(reference(projectId, "slotFiller:orderNumber"), new SlotFillerSettings(
                        "Order number", "regex", "^[A-Z]{2}-[0-9]{6}$", null, false, false, true, "orderNumber", false,
                        "", false, true, "", "")),
                new SnapshotContent.SlotFiller(reference(projectId, "slotFiller:email"), new SlotFillerSettings(
                        "E-mail", "email", null, null, false, false, true, "email", true, "email", false, true, "",
                        "")));
        return List.of(new SnapshotContent.Flow(reference(projectId, "flow:main"), "Support",
                "Greets, tells the opening hours, hands over to a human, says goodbye", List.of(), intents,
                slotFillers, List.of()));
    }

    /** A referenceId (UUID) that is the same for one project and key every time. */
    static String reference(String projectId, String key) {
        return UUID.nameUUIDFromBytes(("template:" + projectId + ":" + key).getBytes(StandardCharsets.UTF_8))
                .toString();
    }
}
