package io.chronix.core.series;

/**
 * What a series' values are; its name is the series' {@code type}. Operational data is mostly
 * doubles, but counters need exact integers, and states and short strings occur too.
 */
public enum ValueType {
  DOUBLE("metric"),
  LONG("long"),
  BOOLEAN("boolean"),
  STRING("string"),
  /** Points whose values are arrays of doubles (per-CPU vectors, histogram buckets). */
  ARRAY("array");

  private final String typeName;

  ValueType(String typeName) {
    this.typeName = typeName;
  }

  /** The series type this value type is stored under. */
  public String typeName() {
    return typeName;
  }

  /** The value type of a series type; unknown types hold doubles, as Chronix' own "metric". */
  public static ValueType ofTypeName(String typeName) {
    for (ValueType type : values()) {
      if (type.typeName.equals(typeName)) {
        return type;
      }
    }
    return DOUBLE;
  }

  /** Whether each value is one number. */
  public boolean isNumeric() {
    return this != STRING && this != ARRAY;
  }
}
