package io.chronix.analysis.promql.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable set of label name/value pairs, sorted by name; the identity of a series in PromQL.
 * Empty values are never stored: in PromQL a label with an empty value is the same as no label.
 */
public final class Labels implements Comparable<Labels> {

  public static final String METRIC_NAME = "__name__";
  public static final Labels EMPTY = new Labels(new String[0], new String[0]);

  private final String[] names;
  private final String[] values;
  private int hash;

  private Labels(String[] names, String[] values) {
    this.names = names;
    this.values = values;
  }

  public static Labels of(Map<String, String> labels) {
    Builder builder = new Builder();
    labels.forEach(builder::set);
    return builder.build();
  }

  /** Alternating names and values: {@code of("__name__", "up", "job", "api")}. */
  public static Labels of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values come in pairs");
    }
    Builder builder = new Builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      builder.set(namesAndValues[i], namesAndValues[i + 1]);
    }
    return builder.build();
  }

  public int size() {
    return names.length;
  }

  public boolean isEmpty() {
    return names.length == 0;
  }

  public String name(int index) {
    return names[index];
  }

  public String value(int index) {
    return values[index];
  }

  /** The value of a label, or "" when the series lacks it. */
  public String get(String name) {
    int index = Arrays.binarySearch(names, name);
    return index >= 0 ? values[index] : "";
  }

  public boolean has(String name) {
    return Arrays.binarySearch(names, name) >= 0;
  }

  public String metricName() {
    return get(METRIC_NAME);
  }

  public Labels withoutMetricName() {
    int index = Arrays.binarySearch(names, METRIC_NAME);
    if (index < 0) {
      return this;
    }
    return without(index);
  }

  private Labels without(int index) {
    String[] n = new String[names.length - 1];
    String[] v = new String[names.length - 1];
    System.arraycopy(names, 0, n, 0, index);
    System.arraycopy(names, index + 1, n, index, names.length - index - 1);
    System.arraycopy(values, 0, v, 0, index);
    System.arraycopy(values, index + 1, v, index, names.length - index - 1);
    return new Labels(n, v);
  }

  /** Only the given labels (those the series has). */
  public Labels keep(Collection<String> kept) {
    Builder builder = new Builder();
    for (int i = 0; i < names.length; i++) {
      if (kept.contains(names[i])) {
        builder.set(names[i], values[i]);
      }
    }
    return builder.build();
  }

  /** All but the given labels. */
  public Labels drop(Collection<String> dropped) {
    Builder builder = new Builder();
    for (int i = 0; i < names.length; i++) {
      if (!dropped.contains(names[i])) {
        builder.set(names[i], values[i]);
      }
    }
    return builder.build();
  }

  public Builder toBuilder() {
    Builder builder = new Builder();
    for (int i = 0; i < names.length; i++) {
      builder.set(names[i], values[i]);
    }
    return builder;
  }

  public List<String> names() {
    return List.of(names);
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Labels)) {
      return false;
    }
    Labels that = (Labels) other;
    return hashCode() == that.hashCode() && Arrays.equals(names, that.names) && Arrays.equals(values, that.values);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
      hash = h == 0 ? 1 : h;
    }
    return hash;
  }

  /**
   * Bytes whose unsigned order ({@link Arrays#compareUnsigned(byte[], byte[])}) is this set's
   * {@link #compareTo} order among the sets that have them: each name and each value in UTF-8,
   * followed by a zero byte. A listing that keeps them sorts with one array comparison a pair
   * instead of comparing label by label (docs/benchmarks.md). Null where a name or value holds a
   * zero character or a surrogate: there UTF-8's order is not the characters' order.
   */
  public byte[] orderKey() {
    byte[][] parts = new byte[names.length * 2][];
    int length = 0;
    for (int i = 0; i < parts.length; i++) {
      String text = i % 2 == 0 ? names[i / 2] : values[i / 2];
      for (int c = 0; c < text.length(); c++) {
        char ch = text.charAt(c);
        if (ch == 0 || Character.isSurrogate(ch)) {
          return null;
        }
      }
      parts[i] = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      length += parts[i].length + 1;
    }
    byte[] key = new byte[length];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, key, at, part.length);
      at += part.length + 1;
    }
    return key;
  }

  /** Prometheus' order: label by label, names then values, a prefix first. */
  @Override
  public int compareTo(Labels other) {
    int n = Math.min(names.length, other.names.length);
    for (int i = 0; i < n; i++) {
      // label sets read together share their names' and repeated values' instances: String's
      // compareTo compares an instance with itself character by character
      int c = names[i] == other.names[i] ? 0 : names[i].compareTo(other.names[i]);
      if (c != 0) {
        return c;
      }
      c = values[i] == other.values[i] ? 0 : values[i].compareTo(other.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(names.length, other.names.length);
  }

  /** As Prometheus prints a label set: {@code {__name__="up", job="api"}}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        text.append(", ");
      }
      text.append(names[i]).append("=\"").append(escape(values[i])).append('"');
    }
    return text.append('}').toString();
  }

  private static String escape(String value) {
    StringBuilder text = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"':
          text.append("\\\"");
          break;
        case '\\':
          text.append("\\\\");
          break;
        case '\n':
          text.append("\\n");
          break;
        default:
          text.append(c);
      }
    }
    return text.toString();
  }

  /**
   * The sorted names of label sets that share them, checked once. A listing's thousand series read
   * with one layout of fields get their labels without a builder each (making each series' labels
   * through one was a fifth of listing them), and their sets share one names array, which
   * comparisons and equality see equal at once.
   */
  public static final class Layout {
    private final String[] names;

    /** @param names sorted, distinct, none empty */
    public Layout(String... names) {
      for (int i = 0; i < names.length; i++) {
        if (names[i] == null || names[i].isEmpty() || (i > 0 && names[i - 1].compareTo(names[i]) >= 0)) {
          throw new IllegalArgumentException("label names must be sorted, distinct and not empty: "
              + Arrays.toString(names));
        }
      }
      this.names = names.clone();
    }

    public int size() {
      return names.length;
    }

    /**
     * The label set with one value for each name, in the names' order. None may be empty: an empty
     * value means no label, which a {@link Builder} leaves out. The set keeps the array.
     */
    public Labels labels(String[] values) {
      if (values.length != names.length) {
        throw new IllegalArgumentException(values.length + " values for " + names.length + " label names");
      }
      for (String value : values) {
        if (value == null || value.isEmpty()) {
          throw new IllegalArgumentException("no label has an empty value: " + Arrays.toString(values));
        }
      }
      return new Labels(names, values);
    }
  }

  /**
   * Collects labels in any order; a later value for a name replaces an earlier one. On two arrays
   * sorted by insertion when built: label sets are small, and a list of boxed positions sorted by
   * a comparator was a twentieth of listing a thousand series in the quick compiler's code.
   */
  public static final class Builder {
    private static final int INSERTION_SORT_MAX = 32;

    private String[] names = new String[8];
    private String[] values = new String[8];
    private int size;

    /** Sets a label; an empty value removes it. */
    public Builder set(String name, String value) {
      int index = indexOf(name);
      if (value == null || value.isEmpty()) {
        if (index >= 0) {
          removeAt(index);
        }
        return this;
      }
      if (index >= 0) {
        values[index] = value;
        return this;
      }
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      names[size] = name;
      values[size++] = value;
      return this;
    }

    public Builder remove(String name) {
      return set(name, "");
    }

    public Builder keepOnly(Set<String> kept) {
      for (int i = size - 1; i >= 0; i--) {
        if (!kept.contains(names[i])) {
          removeAt(i);
        }
      }
      return this;
    }

    public Labels build() {
      if (size > INSERTION_SORT_MAX) {
        return sortedByIndex();
      }
      String[] n = Arrays.copyOf(names, size);
      String[] v = Arrays.copyOf(values, size);
      for (int i = 1; i < size; i++) {
        String name = n[i];
        String value = v[i];
        int j = i - 1;
        while (j >= 0 && n[j].compareTo(name) > 0) {
          n[j + 1] = n[j];
          v[j + 1] = v[j];
          j--;
        }
        n[j + 1] = name;
        v[j + 1] = value;
      }
      return new Labels(n, v);
    }

    /** A set of many labels (remote write lets a sender make any): n log n. */
    private Labels sortedByIndex() {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> names[a].compareTo(names[b]));
      String[] n = new String[size];
      String[] v = new String[size];
      for (int i = 0; i < size; i++) {
        n[i] = names[order[i]];
        v[i] = values[order[i]];
      }
      return new Labels(n, v);
    }

    private int indexOf(String name) {
      for (int i = 0; i < size; i++) {
        if (names[i].equals(name)) {
          return i;
        }
      }
      return -1;
    }

    /** Keeps the others in the order they were set. */
    private void removeAt(int index) {
      System.arraycopy(names, index + 1, names, index, size - index - 1);
      System.arraycopy(values, index + 1, values, index, size - index - 1);
      size--;
      names[size] = null;
      values[size] = null;
    }
  }
}
