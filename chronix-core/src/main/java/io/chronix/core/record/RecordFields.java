package io.chronix.core.record;

import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import java.util.Set;

/**
 * Names of the stored record's fields (the Solr schema in conf/ is their definition). Every
 * other field of a record, except those starting with an underscore, is an attribute of its series;
 * of the underscore fields only the origin attributes ({@link SeriesOrigin}) are.
 */
public final class RecordFields {

  public static final String ID = "id";
  public static final String VERSION = "_version_";
  /**
   * When a record was written relative to the others ({@link WriteOrderClock}): of two records
   * holding a timestamp, the later one wins. Solr's {@code _version_} served before; it exists
   * only with Solr's update log, which the embedded node does without.
   */
  public static final String WRITE_ORDER = "_order";
  public static final String NAME = "name";
  public static final String TYPE = "type";
  /** Epoch milliseconds of the first point, rounded down. */
  public static final String START = "start";
  /** Epoch milliseconds of the last point, rounded down. */
  public static final String END = "end";
  public static final String DATA = "data";
  public static final String COUNT = "count";
  public static final String MIN = "min";
  public static final String MAX = "max";
  public static final String SUM = "sum";
  public static final String FIRST = "first";
  public static final String LAST = "last";

  public static final Set<String> RESERVED =
      Set.of(ID, VERSION, WRITE_ORDER, NAME, TYPE, START, END, DATA, COUNT, MIN, MAX, SUM, FIRST, LAST);

  private RecordFields() {}

  /**
   * Fields starting with an underscore belong to the store itself (Solr's _root_, _version_),
   * except the origin attributes.
   */
  public static boolean isAttribute(String field) {
    return !RESERVED.contains(field) && (!field.startsWith("_") || SeriesOrigin.isOrigin(field));
  }

  /** A field that tells series apart: the name, the type or an attribute. */
  public static boolean isSeriesField(String field) {
    return field.equals(NAME) || field.equals(TYPE) || isAttribute(field);
  }

  /** The key's value of a series field (the name, the type or an attribute); null where it has none. */
  public static String valueOf(SeriesKey key, String field) {
    return field.equals(NAME) ? key.name() : field.equals(TYPE) ? key.type() : key.attributes().get(field);
  }

  public static long nanosToMillis(long nanos) {
    return Math.floorDiv(nanos, 1_000_000L);
  }
}
