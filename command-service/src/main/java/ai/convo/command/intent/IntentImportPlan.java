package ai.convo.command.intent;

import ai.convo.command.snapshot.ProjectCapture.FlowIntent;
import ai.convo.command.snapshot.ProjectCapture.FlowSentence;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.BatchOperations;
import ai.convo.contract.flow.FlowId;
import ai.convo.contract.intent.BatchSentencesCommand;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.CreateIntentCommand;
import ai.convo.contract.intent.IntentBias;
import ai.convo.contract.intent.IntentContent;
import ai.convo.contract.intent.IntentId;
import ai.convo.contract.intent.IntentPatch;
import ai.convo.contract.intent.SentenceId;
import ai.convo.contract.intent.SentenceOperation;
import ai.convo.contract.intent.UpdateIntentCommand;
import ai.convo.contract.locale.LocaleId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What importing a file into a flow does, as the ordinary intent commands (sent together, all or none). An intent of
 * the file is matched to one of the flow by name, ignoring case. One the flow lacks is created (parents before their
 * children), with the file's example sentences in the import's locale. One the flow has is, by mode:
 * <ul>
 * <li>{@code skip}: left as it is;</li>
 * <li>{@code overwrite}: given every field the file holds, and exactly the file's example sentences in the locale
 * (the others of that locale deleted; other locales untouched);</li>
 * <li>{@code merge}: given the example sentences, confirmation sentences, rules and tags of the file it lacks
 * (same text), everything else kept.</li>
 * </ul>
 * A parent or childFeatures name must be an intent of the file or of the flow; a 400 otherwise, as is a cycle of
 * parents within the file. Pure: the caller reads the flow's intents and sends the commands.
 */
final class IntentImportPlan {

    static final List<String> MODES = List.of("skip", "overwrite", "merge");

    record Plan(List<Object> commands, List<String> labels, int created, int changed, int skipped) {

        /**
         * The commands in file order, cut into parts of about {@code events} events each (at least one intent a
         * part): an intent's command and its example sentences always go together, and parents stay before children.
         */
        List<Part> parts(int events) {
            List<Part> parts = new ArrayList<>();
            int from = 0;
            int weight = 0;
            int intents = 0;
            Set<IntentId> counted = new HashSet<>(); // an intent whose childFeatures are set at the end counts once
            for (int i = 0; i < commands.size(); i++) {
                Object command = commands.get(i);
                boolean nextIntent = !(command instanceof BatchSentencesCommand);
                if (nextIntent && weight >= events && i > from) {
                    parts.add(new Part(commands.subList(from, i), labels.subList(from, i), intents));
                    from = i;
                    weight = 0;
                    intents = 0;
                }
                weight += command instanceof BatchSentencesCommand batch ? batch.operations().size() : 1;
                IntentId intent = command instanceof CreateIntentCommand create ? create.intentId()
                        : command instanceof UpdateIntentCommand update ? update.intentId() : null;
                intents += intent != null && counted.add(intent) ? 1 : 0;
            }
            if (from < commands.size()) {
                parts.add(new Part(commands.subList(from, commands.size()), labels.subList(from, commands.size()),
                        intents));
            }
            return parts;
        }
    }

    /** Commands sent together, in one transaction; {@code intents}: of the file's intents, those first met here. */
    record Part(List<Object> commands, List<String> labels, int intents) {
    }

    private IntentImportPlan() {
    }

    static Optional<String> mode(String value) {
        return MODES.contains(value) ? Optional.of(value) : Optional.empty();
    }

    static Plan build(List<IntentFile.Entry> entries, List<FlowIntent> existing, String flowId, String localeId,
                      String mode, Actor actor, long now) {
        Map<String, FlowIntent> inFlow = new HashMap<>();
        existing.forEach(intent -> inFlow.put(IntentFile.key(intent.content().name()), intent));
        Map<String, String> ids = new HashMap<>();
        Map<String, IntentFile.Entry> inFile = new LinkedHashMap<>();
        for (IntentFile.Entry entry : entries) {
            String key = IntentFile.key(entry.name());
            inFile.put(key, entry);
            FlowIntent found = inFlow.get(key);
            ids.put(key, found != null ? found.id() : IntentId.generate().value());
        }
        inFlow.forEach((key, intent) -> ids.putIfAbsent(key, intent.id()));
        for (IntentFile.Entry entry : entries) {
            for (String linked : entry.linkedNames()) {
                if (!ids.containsKey(IntentFile.key(linked))) {
                    throw IntentFile.refused("Intent '" + entry.name() + "' names the intent '" + linked + "' (as its "
                            + "parent or in childFeatures), which is neither in the file nor in the flow.");
                }
            }
        }

        List<Object> commands = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        int created = 0;
        int changed = 0;
        int skipped = 0;
        FlowId flow = FlowId.of(flowId);
        LocaleId locale = LocaleId.of(localeId);
        // an intent's childFeatures may name only intents that exist: those naming one the file creates later are set
        // once all exist, at the end
        Set<String> exist = new HashSet<>();
        existing.forEach(intent -> exist.add(intent.id()));
        List<Object> laterCommands = new ArrayList<>();
        List<String> laterLabels = new ArrayList<>();
        for (IntentFile.Entry entry : parentsFirst(entries, inFile)) {
            String key = IntentFile.key(entry.name());
            IntentId id = IntentId.of(ids.get(key));
            FlowIntent current = inFlow.get(key);
            String label = "intent '" + entry.name() + "'";
            List<SentenceOperation> sentences = new ArrayList<>();
            ChildFeatures children = childFeatures(entry, ids);
            // skip and merge leave an existing intent's childFeatures as they are
            boolean childrenLater = (current == null || mode.equals("overwrite"))
                    && children != null && children.intentIds() != null
                    && !exist.containsAll(children.intentIds());
            if (childrenLater) {
                laterCommands.add(new UpdateIntentCommand(id, flow, actor, new IntentPatch(null, null, null, null, null,
                        false, null, null, null, null, null, null, children, false, null), null, now));
                laterLabels.add(label + " (childFeatures)");
            }
            exist.add(id.value());
            if (current == null) {
                IntentContent content = content(entry, ids);
                commands.add(new CreateIntentCommand(id, flow, actor, UUID.randomUUID().toString(),
                        childrenLater ? withoutChildren(content) : content, now));
                labels.add(label);
                entry.exampleSentences().forEach(text -> sentences.add(create(text, locale)));
                created++;
            } else if (mode.equals("skip")) {
                skipped++;
                continue;
            } else {
                List<String> had = current.sentences().stream().filter(s -> s.localeId().equals(localeId))
                        .map(FlowSentence::text).toList();
                IntentPatch patch;
                if (mode.equals("overwrite")) {
                    patch = overwrite(entry, ids, childrenLater);
                    current.sentences().stream().filter(s -> s.localeId().equals(localeId)).forEach(s -> sentences.add(
                            new SentenceOperation(BatchOperations.Op.DELETE, SentenceId.of(s.id()), null, null)));
                    entry.exampleSentences().forEach(text -> sentences.add(create(text, locale)));
                } else {
                    patch = merge(entry, current);
                    Set<String> known = new HashSet<>(had);
                    entry.exampleSentences().stream().filter(known::add).forEach(text -> sentences.add(create(text, locale)));
                }
                commands.add(new UpdateIntentCommand(id, flow, actor, patch, null, now));
                labels.add(label);
                changed++;
            }
            if (!sentences.isEmpty()) {
                commands.add(new BatchSentencesCommand(id, flow, actor, sentences, now));
                labels.add(label + " (example sentences)");
            }
        }
        commands.addAll(laterCommands);
        labels.addAll(laterLabels);
        return new Plan(commands, labels, created, changed, skipped);
    }

    private static SentenceOperation create(String text, LocaleId locale) {
        return new SentenceOperation(BatchOperations.Op.CREATE, SentenceId.generate(), text, locale);
    }

    /** The file's entries with every parent the file holds before its children; a cycle is a 400. */
    private static List<IntentFile.Entry> parentsFirst(List<IntentFile.Entry> entries,
                                                       Map<String, IntentFile.Entry> inFile) {
        List<IntentFile.Entry> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        for (IntentFile.Entry entry : entries) {
            List<IntentFile.Entry> chain = new ArrayList<>();
            Set<String> onChain = new LinkedHashSet<>();
            for (IntentFile.Entry at = entry; at != null && !placed.contains(IntentFile.key(at.name()));
                 at = at.parentName() == null ? null : inFile.get(IntentFile.key(at.parentName()))) {
                if (!onChain.add(IntentFile.key(at.name()))) {
                    throw IntentFile.refused("The parents of the file's intents form a cycle: "
                            + String.join(" -> ", chain.stream().map(IntentFile.Entry::name).toList()) + " -> "
                            + at.name() + ".");
                }
                chain.add(at);
            }
            for (int i = chain.size() - 1; i >= 0; i--) {
                placed.add(IntentFile.key(chain.get(i).name()));
                ordered.add(chain.get(i));
            }
        }
        return ordered;
    }

    private static IntentContent content(IntentFile.Entry e, Map<String, String> ids) {
        return new IntentContent(e.name(), or(e.description(), ""), or(e.tags(), List.of()),
                Boolean.TRUE.equals(e.rejectIntent()), Boolean.TRUE.equals(e.disabled()), parent(e, ids),
                or(e.condition(), ""), or(e.confirmationSentences(), List.of()), or(e.disambiguationSentence(), ""),
                or(e.rules(), List.of()), or(e.data(), Map.of()), or(childFeatures(e, ids), ChildFeatures.NONE),
                bias(e));
    }

    private static IntentContent withoutChildren(IntentContent c) {
        return new IntentContent(c.name(), c.description(), c.tags(), c.rejectIntent(), c.disabled(), c.parentIntentId(),
                c.condition(), c.confirmationSentences(), c.disambiguationSentence(), c.rules(), c.data(),
                ChildFeatures.NONE, c.bias());
    }

    private static IntentPatch overwrite(IntentFile.Entry e, Map<String, String> ids, boolean childrenLater) {
        return new IntentPatch(e.name(), e.description(), e.tags(), e.rejectIntent(), e.disabled(), e.parentPresent(),
                parent(e, ids), e.condition(), e.confirmationSentences(), e.disambiguationSentence(), e.rules(), e.data(),
                childrenLater ? null : childFeatures(e, ids), e.biasPresent(), bias(e));
    }

    private static IntentPatch merge(IntentFile.Entry e, FlowIntent current) {
        var was = current.content();
        return new IntentPatch(null, null, union("tags", e.name(), was.tags(), e.tags(), IntentController.TAGS_MAX),
                null, null, false, null, null,
                union("confirmationSentences", e.name(), was.confirmationSentences(), e.confirmationSentences(),
                        IntentController.SENTENCE_LIST_MAX), null,
                union("rules", e.name(), was.rules(), e.rules(), IntentController.SENTENCE_LIST_MAX),
                null, null, false, null);
    }

    /** What the intent has, then what the file adds; null (unchanged) when the file adds nothing. */
    private static List<String> union(String field, String name, List<String> had, List<String> added, int max) {
        if (added == null) {
            return null;
        }
        LinkedHashSet<String> all = new LinkedHashSet<>(had == null ? List.of() : had);
        int before = all.size();
        all.addAll(added);
        if (all.size() == before) {
            return null;
        }
        if (all.size() > max) {
            throw IntentFile.refused("Merging would give intent '" + name + "' " + all.size() + " " + field
                    + "; an intent holds at most " + max + ".");
        }
        return List.copyOf(all);
    }

    private static IntentId parent(IntentFile.Entry e, Map<String, String> ids) {
        return e.parentName() == null ? null : IntentId.of(ids.get(IntentFile.key(e.parentName())));
    }

    private static ChildFeatures childFeatures(IntentFile.Entry e, Map<String, String> ids) {
        if (e.childFeatures() instanceof Boolean all) {
            return ChildFeatures.of(all);
        }
        if (e.childFeatures() instanceof List<?> names) {
            return ChildFeatures.of(names.stream().map(n -> ids.get(IntentFile.key((String) n)))
                    .filter(Objects::nonNull).distinct().toList());
        }
        return null;
    }

    private static IntentBias bias(IntentFile.Entry e) {
        return e.bias() == null ? null : IntentBias.fromCode(e.bias()).orElse(null);
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
