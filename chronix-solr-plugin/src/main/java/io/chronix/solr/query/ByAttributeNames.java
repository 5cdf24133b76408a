package io.chronix.solr.query;

import io.chronix.core.series.AttributeMap;
import java.util.function.Function;

/**
 * An answer that depends on a key's attribute names only (a test, or where an attribute is), given
 * again without asking where the names are those of the last key asked. A listing asks about every
 * buffered series, and a fleet's series share a handful of name lists: with 10,000 buffered series
 * under a steady load, hashing and comparing each key's names against the schema and the names
 * found so far was two thirds of a label-name listing (3.6-5 ms, against VictoriaMetrics' 0.6-0.8).
 *
 * <p>Names are compared by identity: a key's names are the process' shared instances
 * ({@code SeriesWords}), so equal lists of names are the same instances; where they are not (past
 * the shared vocabulary's bound) the answer is asked for again, which costs time, not correctness.
 * One instance serves one request's thread.
 */
final class ByAttributeNames<T> {

  private final Function<AttributeMap, T> answer;
  private String[] last = new String[0];
  private int lastSize = -1;
  private long lastStamp;
  private T lastAnswer;

  /** @param answer which depends on the names of the attributes it is given and on the stamp alone */
  ByAttributeNames(Function<AttributeMap, T> answer) {
    this.answer = answer;
  }

  /**
   * The answer for these attributes.
   *
   * @param stamp what else the answer depends on (the size of a set that only grows, say): a stamp
   *     other than the last one's asks again
   */
  T apply(AttributeMap attributes, long stamp) {
    if (stamp == lastStamp && sameAsLast(attributes)) {
      return lastAnswer;
    }
    T answer = this.answer.apply(attributes);
    int size = attributes.size();
    if (last.length < size) {
      last = new String[size];
    }
    for (int i = 0; i < size; i++) {
      last[i] = attributes.name(i);
    }
    lastSize = size;
    lastStamp = stamp;
    lastAnswer = answer;
    return answer;
  }

  private boolean sameAsLast(AttributeMap attributes) {
    if (attributes.size() != lastSize) {
      return false;
    }
    for (int i = 0; i < lastSize; i++) {
      if (attributes.name(i) != last[i]) {
        return false;
      }
    }
    return true;
  }
}
