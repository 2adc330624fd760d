package ai.convo.testing;

import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/** Every event record of the contract, found on the class path, so a guard test cannot forget a new one. */
public final class ContractEvents {

    private ContractEvents() {
    }

    public static List<Class<?>> types() throws Exception {
        List<Class<?>> types = new ArrayList<>();
        for (Resource resource : new PathMatchingResourcePatternResolver()
                .getResources("classpath*:ai/convo/contract/**/*Event.class")) {
            String path = resource.getURL().toString();
            String name = path.substring(path.lastIndexOf("ai/convo/contract/"), path.length() - ".class".length())
                    .replace('/', '.');
            Class<?> type = Class.forName(name);
            if (type.isRecord()) {
                types.add(type);
            }
        }
        return types;
    }
}
