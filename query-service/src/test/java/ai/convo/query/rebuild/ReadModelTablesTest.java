package ai.convo.query.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.contract.rebuild.Projections;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.axonframework.config.ProcessingGroup;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/** The rebuild's map of projections and tables cannot go stale: every processing group and every table is in it. */
class ReadModelTablesTest {

    @Test
    void everyProcessingGroupOfTheQueryServiceIsAProjectionTheOperatorCanName() throws Exception {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ProcessingGroup.class));
        Set<String> groups = new TreeSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("ai.convo.query")) {
            groups.add(Class.forName(candidate.getBeanClassName()).getAnnotation(ProcessingGroup.class).value());
        }
        assertThat(groups).containsExactlyInAnyOrderElementsOf(ReadModelTables.PROJECTIONS.keySet());
        assertThat(Projections.NAMES).containsExactlyElementsOf(ReadModelTables.PROJECTIONS.keySet());
    }

    @Test
    void everyTableOfTheQuerySchemaIsRebuiltOrSaysWhyNot() throws IOException {
        Set<String> created = new TreeSet<>();
        Pattern table = Pattern.compile("(?i)CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?([a-z_]+)");
        for (Resource migration : new PathMatchingResourcePatternResolver().getResources("classpath:db/query/*.sql")) {
            Matcher m = table.matcher(migration.getContentAsString(StandardCharsets.UTF_8));
            while (m.find()) {
                created.add(m.group(1).toLowerCase());
            }
        }
        Set<String> known = new HashSet<>(ReadModelTables.NOT_DERIVED.keySet());
        ReadModelTables.PROJECTIONS.values().forEach(p -> {
            known.addAll(p.switched());
            known.addAll(p.scratch());
        });
        assertThat(created).containsExactlyInAnyOrderElementsOf(known);
    }

    @Test
    void everyIndexARebuildBuildsAfterTheLoadIsAnIndexOfARebuiltTable() throws IOException {
        // given: the indexes the migrations create, with their tables
        java.util.Map<String, String> indexes = new java.util.HashMap<>();
        Pattern index = Pattern.compile("(?i)CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?([a-z_]+) ON ([a-z_]+)");
        for (Resource migration : new PathMatchingResourcePatternResolver().getResources("classpath:db/query/*.sql")) {
            Matcher m = index.matcher(migration.getContentAsString(StandardCharsets.UTF_8));
            while (m.find()) {
                indexes.put(m.group(1).toLowerCase(), m.group(2).toLowerCase());
            }
        }
        Set<String> rebuilt = new HashSet<>();
        ReadModelTables.PROJECTIONS.values().forEach(p -> rebuilt.addAll(p.switched()));
        // when / then: a renamed or dropped index would otherwise quietly be built during the load again
        assertThat(ReadModelTables.INDEXES_AFTER_LOAD).isNotEmpty().allSatisfy(name -> {
            assertThat(indexes).containsKey(name);
            assertThat(rebuilt).contains(indexes.get(name));
        });
    }
}
