package ai.convo.command.token;

import ai.convo.contract.common.DomainException;
import java.util.Map;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;

/** Hamcrest matchers for the write model's {@link DomainException}s, shared by the token and function tests. */
public final class DomainErrors {

    private DomainErrors() {
    }

    /** A DomainException of exactly this kind whose message contains the fragment. */
    public static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment) {
        return domainError(kind, messageFragment, null);
    }

    /** An INVALID DomainException whose details name exactly this field. */
    public static Matcher<Object> invalidField(String field) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                return actual instanceof DomainException e && e.kind() == DomainException.Kind.INVALID
                        && e.details().keySet().equals(java.util.Set.of(field))
                        && e.getMessage().contains(field);
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("an INVALID DomainException naming only '" + field + "'");
            }

            @Override
            public void describeMismatch(Object actual, Description description) {
                description.appendText("was " + (actual instanceof DomainException e
                        ? e.kind() + " '" + e.getMessage() + "' details " + e.details() : actual));
            }
        };
    }

    /** Like {@link #domainError(DomainException.Kind, String)} and, when {@code details} is not null, with exactly these details. */
    public static Matcher<Object> domainError(DomainException.Kind kind, String messageFragment,
                                              Map<String, Object> details) {
        return new BaseMatcher<>() {
            @Override
            public boolean matches(Object actual) {
                return actual instanceof DomainException e
                        && e.kind() == kind
                        && e.getMessage() != null && e.getMessage().contains(messageFragment)
                        && (details == null || details.equals(e.details()));
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("DomainException of kind " + kind + " with a message containing '"
                        + messageFragment + "'" + (details == null ? "" : " and details " + details));
            }

            @Override
            public void describeMismatch(Object actual, Description description) {
                if (actual instanceof DomainException e) {
                    description.appendText("was kind " + e.kind() + ", message '" + e.getMessage() + "', details "
                            + e.details());
                } else {
                    description.appendText("was " + actual);
                }
            }
        };
    }
}
