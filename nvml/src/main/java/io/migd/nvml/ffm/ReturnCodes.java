package io.migd.nvml.ffm;

import io.migd.nvml.NvmlCallObserver;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;

/** Reports every call's return code to the observer and turns a failure into an exception. */
final class ReturnCodes {
  private final NvmlCallObserver observer;

  ReturnCodes(NvmlCallObserver observer) {
    this.observer = observer;
  }

  /** Reports the call and throws unless it succeeded; returns the code for callers that branch. */
  NvmlReturn check(String function, int rc) {
    NvmlReturn result = observe(function, rc);
    if (result != NvmlReturn.SUCCESS) {
      throw failure(function, result);
    }
    return result;
  }

  /** Reports the call and returns its code without throwing. */
  NvmlReturn observe(String function, int rc) {
    NvmlReturn result = NvmlReturn.of(rc);
    observer.called(function, result);
    return result;
  }

  static NvmlException failure(String function, NvmlReturn code) {
    return new NvmlException(function, code, "");
  }
}
