package ai.convo.query.rebuild;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import ai.convo.query.QueryServiceApplication;
import ai.convo.testing.PackageRules;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaParameter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.junit.jupiter.api.Test;

/**
 * Rebuilds and catch-ups ask whether a projection handles an event once per payload type ({@link Rebuilder.Target}):
 * that holds while no event handler chooses its events by their metadata.
 */
class HandlerChoiceTest {

    @Test
    void givenEveryEventHandler_whenItsParametersAreRead_thenNoneChoosesByMetadata() {
        methods().that().areAnnotatedWith(EventHandler.class)
                .should(new ArchCondition<JavaMethod>("choose events by payload type alone") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        for (JavaParameter parameter : method.getParameters()) {
                            if (parameter.isAnnotatedWith(MetaDataValue.class)
                                    || parameter.getRawType().isAssignableTo(MetaData.class)) {
                                events.add(SimpleConditionEvent.violated(method, method.getFullName()
                                        + " reads metadata: Rebuilder.Target.handles must then ask per event"));
                            }
                        }
                    }
                })
                .check(PackageRules.mainClasses(QueryServiceApplication.class));
    }
}
