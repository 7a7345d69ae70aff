package io.migd.nvml.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.migd.nvml.DeviceHandle;
import io.migd.nvml.InstancePlacement;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * What the parts of {@link FfmNvml} share: the library's handles, the return-code check and the
 * session gate every typed call passes, and the small marshalling helpers.
 */
final class FfmCalls {
  final nvml_h raw;
  final FfmSession session;
  private final ReturnCodes codes;

  FfmCalls(nvml_h raw, ReturnCodes codes, FfmSession session) {
    this.raw = raw;
    this.codes = codes;
    this.session = session;
  }

  /** One typed call: on this thread, behind the session gate. */
  <T> T call(Callable<T> body) {
    return session.call(body);
  }

  void run(Runnable body) {
    call(
        () -> {
          body.run();
          return null;
        });
  }

  /** Reports the call and throws unless it succeeded; returns the code for callers that branch. */
  NvmlReturn check(String function, int rc) {
    return codes.check(function, rc);
  }

  /** Reports the call and returns its code without throwing. */
  NvmlReturn observe(String function, int rc) {
    return codes.observe(function, rc);
  }

  ReturnCodes codes() {
    return codes;
  }

  interface IntOut {
    int call(MemorySegment out);
  }

  int readInt(String function, IntOut call) {
    return call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(JAVA_INT);
            check(function, call.call(out));
            return out.get(JAVA_INT, 0);
          }
        });
  }

  long readAddress(String function, IntOut call) {
    return call(
        () -> {
          try (var arena = Arena.ofConfined()) {
            var out = arena.allocate(ADDRESS);
            check(function, call.call(out));
            return out.get(ADDRESS, 0).address();
          }
        });
  }

  static NvmlException failure(String function, NvmlReturn code) {
    return ReturnCodes.failure(function, code);
  }

  static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  static MemorySegment dev(DeviceHandle d) {
    return ptr(d.address());
  }

  static String cString(MemorySegment buffer) {
    long size = buffer.byteSize();
    int length = 0;
    while (length < size && buffer.get(JAVA_BYTE, length) != 0) {
      length++;
    }
    byte[] bytes = new byte[length];
    MemorySegment.copy(buffer, JAVA_BYTE, 0, bytes, 0, length);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static InstancePlacement placement(int start, int size) {
    return new InstancePlacement(start, size);
  }
}
