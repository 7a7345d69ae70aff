package io.migd.app;

import io.migd.reconcile.Desired;
import io.migd.reconcile.Outcome;
import io.migd.reconcile.OutcomeListener;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Tells Spring Boot the node is ready to serve once a reconcile has ended; the last of the
 * surfaces, so every other one shows the outcome first.
 */
final class ReadinessPublisher implements OutcomeListener {
  private final ApplicationEventPublisher events;

  ReadinessPublisher(ApplicationEventPublisher events) {
    this.events = events;
  }

  @Override
  public void reconciled(Desired desired, Outcome outcome) {
    AvailabilityChangeEvent.publish(events, outcome, ReadinessState.ACCEPTING_TRAFFIC);
  }
}
