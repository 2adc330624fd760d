package ai.convo.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The boundaries inside one module, as ArchUnit rules over its compiled classes. A module's packages are the
 * top-level packages under its root ({@code ai.convo.command.flow}, {@code ai.convo.command.web}, ...; a sub-package
 * belongs to its top-level one). Two rules:
 * <ul>
 *   <li>{@link #noCycles}: no cycle between those packages, so each can be read, tested and changed from the bottom up;</li>
 *   <li>{@link #featuresMeetThroughLookups}: a class may use a type of another of those packages only when the package
 *   is one of the module's shared packages (the ground every feature stands on), or the type is a named lookup: its
 *   top-level class is called {@code *Lookup} (what a feature answers others, kept in the same transaction as its
 *   events) or is one of a few named entry points. Both lists live in the module's own test, each entry with its
 *   reason.</li>
 * </ul>
 * The rules are checked against the module's own {@code target/classes} (see {@link #mainClasses}) and, in
 * {@code PackageRulesTest}, against planted packages that break them, so they are known to fail.
 */
public final class PackageRules {

    /** Top-level classes named so are a feature's answers to the others (FlowLookup, ProjectLookup, ...). */
    public static final String LOOKUP_SUFFIX = "Lookup";

    private PackageRules() {
    }

    /** Every production class of the module that compiled {@code anchor} (its target/classes, no test class). */
    public static JavaClasses mainClasses(Class<?> anchor) {
        Path classes;
        try {
            classes = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(classes);
    }

    /** No cycle between the top-level packages under {@code root}. */
    public static ArchRule noCycles(String root) {
        return slices().matching(root + ".(*)..").namingSlices("$1").should().beFreeOfCycles()
                .because("a cycle between packages means neither can be understood or changed without the other");
    }

    /**
     * A class under {@code root} uses a type of another top-level package only if that package is shared or the type
     * is a named lookup ({@code *Lookup}, or a top-level class named in {@code entryPoints}). Keys of both maps are
     * relative to {@code root} ("web", "snapshot.ProjectCapture"); values are the reasons.
     */
    public static ArchRule featuresMeetThroughLookups(String root, Map<String, String> sharedPackages,
                                                      Map<String, String> entryPoints) {
        return classes().that().resideInAPackage(root + "..")
                .should(reachOtherPackagesOnlyThroughLookups(root, sharedPackages, entryPoints))
                .because("a feature is changed in its own package; others see it only through what it answers");
    }

    private static ArchCondition<JavaClass> reachOtherPackagesOnlyThroughLookups(
            String root, Map<String, String> sharedPackages, Map<String, String> entryPoints) {
        return new ArchCondition<>("reach other packages only through shared packages or named lookups") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String from = topPackage(root, origin);
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass().getBaseComponentType();
                    if (!target.getPackageName().equals(root) && !target.getPackageName().startsWith(root + ".")) {
                        continue;
                    }
                    String to = topPackage(root, target);
                    if (to.equals(from) || sharedPackages.containsKey(to)) {
                        continue;
                    }
                    JavaClass named = topLevel(target);
                    String relative = named.getName().substring(root.length() + 1);
                    if (named.getSimpleName().endsWith(LOOKUP_SUFFIX) || entryPoints.containsKey(relative)) {
                        continue;
                    }
                    events.add(SimpleConditionEvent.violated(dependency, "package " + from + " reaches into package "
                            + to + ", not through a lookup: " + dependency.getDescription()));
                }
            }
        };
    }

    /** The top-level package under root ("flow" for ai.convo.command.flow.x.Y); "" for a class in root itself. */
    static String topPackage(String root, JavaClass type) {
        String name = type.getPackageName();
        if (name.equals(root)) {
            return "";
        }
        String rest = name.substring(root.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static JavaClass topLevel(JavaClass type) {
        JavaClass at = type;
        while (at.getEnclosingClass().isPresent()) {
            at = at.getEnclosingClass().get();
        }
        return at;
    }
}
