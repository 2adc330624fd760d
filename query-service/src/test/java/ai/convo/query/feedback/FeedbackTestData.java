package ai.convo.query.feedback;

import ai.convo.query.feedback.FeedbackAnalysis.Finding;
import ai.convo.query.feedback.FeedbackAnalysis.IntentSentences;
import ai.convo.query.feedback.FeedbackAnalysis.Report;
import java.util.List;

/** Builders shared by the feedback tests. */
final class FeedbackTestData {

    private FeedbackTestData() {
    }

    /** An intent named "Intent &lt;id&gt;". */
    static IntentSentences intent(String id, String... sentences) {
        return new IntentSentences(id, "Intent " + id, List.of(sentences));
    }

    static List<String> types(Report report) {
        return report.findings().stream().map(Finding::type).toList();
    }

    static Finding finding(Report report, String type) {
        return report.findings().stream().filter(f -> f.type().equals(type)).findFirst().orElse(null);
    }
}
