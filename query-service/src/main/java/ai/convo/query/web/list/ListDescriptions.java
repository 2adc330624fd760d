package ai.convo.query.web.list;

import ai.convo.http.openapi.ApiDescription;
import ai.convo.http.openapi.OperationFacts;
import java.lang.reflect.Field;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.method.HandlerMethod;

/** A list handler's operation gets the list's parameters, its sortable fields and the list envelope. */
@Component
class ListDescriptions implements OperationFacts {

    @Override
    public void describe(HandlerMethod handler, String method, String pattern, Map<String, Object> operation,
                         Map<String, Object> components) {
        ListOf list = handler.getMethodAnnotation(ListOf.class);
        if (list != null) {
            ApiDescription.describeList(operation, definition(handler.getBeanType(), list.value()).sortableFields());
        }
    }

    static ListDefinition definition(Class<?> type, String name) {
        Field field = ReflectionUtils.findField(type, name, ListDefinition.class);
        if (field == null) {
            throw new IllegalStateException(type.getName() + " has no ListDefinition " + name + " (@ListOf)");
        }
        ReflectionUtils.makeAccessible(field);
        return (ListDefinition) ReflectionUtils.getField(field, null);
    }
}
