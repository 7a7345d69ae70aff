package io.migd.app;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports a command property holding whitespace in one line with the list form to use, ahead of
 * Spring Boot's generic report of a property that failed to bind.
 */
class InvalidCommandFailureAnalyzer
    extends AbstractFailureAnalyzer<CommandList.InvalidCommandException> implements Ordered {
  @Override
  protected FailureAnalysis analyze(
      Throwable rootFailure, CommandList.InvalidCommandException cause) {
    return new FailureAnalysis(
        cause.getMessage(), "Give the command as a comma-separated argument list.", cause);
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
