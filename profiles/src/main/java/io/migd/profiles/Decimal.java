package io.migd.profiles;

/** Strict parsing of non-negative decimal integers for the data and config readers. */
final class Decimal {
  private static final int MAX_DIGITS = 9;

  private Decimal() {}

  /**
   * Parses plain ASCII digits: no sign, no spaces, no leading zeros, at most nine digits.
   *
   * @throws IllegalArgumentException naming {@code what} if the text is not such a number
   */
  static int parse(String text, String what) {
    boolean digits = !text.isEmpty() && text.length() <= MAX_DIGITS;
    for (int i = 0; digits && i < text.length(); i++) {
      digits = text.charAt(i) >= '0' && text.charAt(i) <= '9';
    }
    if (!digits || (text.length() > 1 && text.charAt(0) == '0')) {
      throw new IllegalArgumentException(what + " \"" + text + "\" is not a decimal number");
    }
    return Integer.parseInt(text);
  }
}
