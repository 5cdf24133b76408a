package io.chronix.analysis.promql.parser;

/**
 * Unquotes PromQL strings as Go's strconv.Unquote does: "..." and '...' with escapes
 * ({@code \n}, {@code \x41}, {@code \101}, {@code \u00e9}, {@code \U0001F600}, the quote itself),
 * `...` raw.
 */
final class StringLiterals {

  private StringLiterals() {}

  /** @throws IllegalArgumentException naming the bad escape */
  static String unquote(String quoted) {
    char quote = quoted.charAt(0);
    String body = quoted.substring(1, quoted.length() - 1);
    if (quote == '`') {
      return body;
    }
    StringBuilder text = new StringBuilder(body.length());
    int i = 0;
    while (i < body.length()) {
      char c = body.charAt(i++);
      if (c != '\\') {
        text.append(c);
        continue;
      }
      if (i >= body.length()) {
        throw new IllegalArgumentException("escape sequence not terminated");
      }
      char e = body.charAt(i++);
      switch (e) {
        case 'a':
          text.append('\u0007');
          break;
        case 'b':
          text.append('\b');
          break;
        case 'f':
          text.append('\f');
          break;
        case 'n':
          text.append('\n');
          break;
        case 'r':
          text.append('\r');
          break;
        case 't':
          text.append('\t');
          break;
        case 'v':
          text.append('\u000b');
          break;
        case '\\':
          text.append('\\');
          break;
        case 'x':
          i = appendCode(body, i, 2, 16, text, true);
          break;
        case 'u':
          i = appendCode(body, i, 4, 16, text, false);
          break;
        case 'U':
          i = appendCode(body, i, 8, 16, text, false);
          break;
        default:
          if (e == quote) {
            text.append(e);
          } else if (e >= '0' && e <= '7') {
            i = appendCode(body, i - 1, 3, 8, text, true);
          } else {
            throw new IllegalArgumentException("unknown escape sequence '\\" + e + "'");
          }
      }
    }
    return text.toString();
  }

  /** Octal and \x escapes give a byte (Go strings are bytes); others a code point. */
  private static int appendCode(String body, int from, int digits, int radix, StringBuilder text, boolean isByte) {
    if (from + digits > body.length()) {
      throw new IllegalArgumentException("escape sequence not terminated");
    }
    int code;
    try {
      code = Integer.parseUnsignedInt(body.substring(from, from + digits), radix);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("illegal character in escape sequence '" + body.substring(from, from + digits) + "'");
    }
    if (isByte) {
      if (code > 255) {
        throw new IllegalArgumentException("escape sequence is an invalid Unicode code point");
      }
      // a lone byte: as Latin-1 for ASCII, else the replacement of an invalid UTF-8 byte
      text.append(code < 0x80 ? (char) code : '\uFFFD');
    } else {
      if (code > Character.MAX_CODE_POINT || (code >= 0xD800 && code < 0xE000)) {
        throw new IllegalArgumentException("escape sequence is an invalid Unicode code point");
      }
      text.appendCodePoint(code);
    }
    return from + digits;
  }
}
