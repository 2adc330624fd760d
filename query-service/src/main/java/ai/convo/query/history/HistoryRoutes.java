package ai.convo.query.history;

import ai.convo.http.security.ApiPrincipal;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Predicate;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;

/**
 * Maps {@code GET} of every resource type's history route to {@link HistoryQueryController#history}, in Spring's
 * annotated handler mapping (as a {@code @GetMapping} would, with the controllers' path prefix): a new type's route
 * comes with its entry in ResourceTypes, and every route keeps the annotated routes' security, problem bodies,
 * 404/405/406 answers and appears where route tables are read (the hostile corpus, the handler index).
 */
@Component
class HistoryRoutes implements SmartInitializingSingleton {

    private final RequestMappingHandlerMapping mapping;
    private final HistoryQueryController controller;

    HistoryRoutes(@Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mapping,
                  HistoryQueryController controller) {
        this.mapping = mapping;
        this.controller = controller;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Method handler;
        try {
            handler = HistoryQueryController.class.getMethod("history", ServerWebExchange.class, ApiPrincipal.class,
                    Map.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        String prefix = prefix();
        // What the mapping gives the annotated routes: its path parser and content type resolver.
        RequestMappingInfo.BuilderConfiguration options = new RequestMappingInfo.BuilderConfiguration();
        options.setPatternParser(mapping.getPathPatternParser());
        options.setContentTypeResolver(mapping.getContentTypeResolver());
        for (String path : HistoryQueryController.ROUTES.keySet().stream().sorted().toList()) {
            mapping.registerMapping(RequestMappingInfo.paths(prefix + path).methods(RequestMethod.GET)
                    .options(options).build(), controller, handler);
        }
    }

    /** The path prefix the mapping gives this controller's routes (the base path, /new). */
    private String prefix() {
        for (Map.Entry<String, Predicate<Class<?>>> prefix : mapping.getPathPrefixes().entrySet()) {
            if (prefix.getValue().test(HistoryQueryController.class)) {
                return prefix.getKey();
            }
        }
        return "";
    }
}
