package ai.convo.contract.yesno;

/** One example sentence of a yes/no intent. */
public record YesNoSentence(String sentenceId, String text) {
}
