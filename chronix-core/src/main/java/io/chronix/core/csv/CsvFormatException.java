package io.chronix.core.csv;

import java.io.IOException;

/** A CSV file that does not follow its format; the message names file, line and problem. */
public class CsvFormatException extends IOException {

  public CsvFormatException(String message) {
    super(message);
  }
}
