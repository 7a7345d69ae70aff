package io.migd.profiles;

import io.migd.profiles.ProfileName.Attribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** Reads one profile name left to right; every failure names the part that is wrong. */
final class ProfileNameParser {
  private static final int MAX_DIGITS = 6;

  /** Longest suffix first, so {@code +me.all} is not read as {@code +me} followed by junk. */
  private static final List<Attribute> BY_LENGTH =
      Arrays.stream(Attribute.values())
          .sorted(Comparator.comparingInt((Attribute a) -> a.suffix().length()).reversed())
          .toList();

  private static final String KNOWN =
      Arrays.stream(Attribute.values()).map(Attribute::suffix).collect(Collectors.joining(", "));

  private final String text;
  private int at;

  ProfileNameParser(String text) {
    this.text = text;
  }

  ProfileName parse() {
    if (text.isEmpty()) {
      throw fail("the name is empty");
    }
    for (int i = 0; i < text.length(); i++) {
      if (Character.isWhitespace(text.charAt(i))) {
        throw fail("it contains whitespace");
      }
    }
    int first = number("the slice count");
    int computeSlices;
    int gpuSlices;
    if (accept("c.")) {
      computeSlices = first;
      gpuSlices = number("the GPU-instance slice count");
      expect("g.", "expected \"g.\" after the GPU-instance slice count");
    } else if (accept("g.")) {
      gpuSlices = first;
      computeSlices = first;
    } else {
      throw fail("expected \"g.\" or \"c.\" after the slice count " + first);
    }
    int memoryGb = number("the memory size");
    expect("gb", "expected \"gb\" after the memory size " + memoryGb);
    if (computeSlices > gpuSlices) {
      throw fail(
          "the compute instance ("
              + computeSlices
              + "c) is larger than its GPU instance ("
              + gpuSlices
              + "g)");
    }
    var attributes = new ArrayList<Attribute>();
    while (at < text.length()) {
      attributes.add(attribute());
    }
    try {
      return new ProfileName(computeSlices, gpuSlices, memoryGb, attributes);
    } catch (IllegalArgumentException e) {
      throw fail(e.getMessage());
    }
  }

  private Attribute attribute() {
    for (var candidate : BY_LENGTH) {
      var suffix = candidate.suffix();
      if (text.startsWith(suffix, at)) {
        int end = at + suffix.length();
        // "+me" must not match the start of "+meX": an attribute ends where the next one begins.
        if (end == text.length() || text.charAt(end) == '+' || text.charAt(end) == '-') {
          at = end;
          return candidate;
        }
      }
    }
    throw fail("unknown attribute \"" + text.substring(at) + "\" (known: " + KNOWN + ")");
  }

  private int number(String what) {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    if (at == start) {
      throw fail("expected " + what + " at position " + start);
    }
    var digits = text.substring(start, at);
    if (digits.length() > 1 && digits.charAt(0) == '0') {
      throw fail("number \"" + digits + "\" has a leading zero");
    }
    if (digits.length() > MAX_DIGITS) {
      throw fail("number \"" + digits + "\" is too large");
    }
    int value = Integer.parseInt(digits);
    if (value == 0) {
      throw fail(what + " must be at least 1");
    }
    return value;
  }

  private boolean accept(String token) {
    if (text.startsWith(token, at)) {
      at += token.length();
      return true;
    }
    return false;
  }

  private void expect(String token, String message) {
    if (!accept(token)) {
      throw fail(message);
    }
  }

  private ProfileNameException fail(String reason) {
    return new ProfileNameException(text, reason);
  }
}
