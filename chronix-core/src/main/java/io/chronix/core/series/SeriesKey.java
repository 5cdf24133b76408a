package io.chronix.core.series;

import io.chronix.core.record.RecordFields;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;

/**
 * Identity of a series: its name, its value type and its attributes (host, process, group, ...).
 * Two points belong to the same series exactly when their keys are equal.
 */
public final class SeriesKey {

  /** The value type of series whose points are doubles (the Chronix name for it). */
  public static final String METRIC = "metric";

  private final String name;
  private final String type;
  private final AttributeMap attributes;
  private final ValueType valueType;
  private final int hash;
  /** {@link #valueCharacters}, counted while the parts are at hand (the ingest's budget asks per new series). */
  private final int valueCharacters;
  /** The bits of {@link #id} and {@link #routingId}, made when first asked ({@link #digest()}). */
  private long idBits;
  private long routingBits;
  /** Set after both bits are: a thread that reads it true reads them whole. */
  private volatile boolean digested;
  /** {@link #recordFieldsHash}, made when first asked; 0 until then (a hash of 0 is made each time). */
  private int recordFieldsHash;

  public SeriesKey(String name, String type, Map<String, String> attributes) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a series needs a non-empty name");
    }
    this.name = name;
    this.type = SeriesWords.shared(Objects.requireNonNull(type, "type"));
    this.attributes = AttributeMap.of(attributes);
    this.valueType = ValueType.ofTypeName(type);
    this.hash = hash(name, type, this.attributes);
    int characters = name.length();
    for (int i = 0; i < this.attributes.size(); i++) {
      characters += this.attributes.value(i).length();
    }
    this.valueCharacters = characters;
  }

  /**
   * Ordered over every part, unlike a map's hash (a sum of key ^ value per entry): keys that
   * differ in two attributes by one character each (host=h12,dc=dc0 and host=h13,dc=dc1) would
   * collide there, and a fleet of such series degraded the ingest path's maps into long chains.
   */
  private static int hash(String name, String type, AttributeMap attributes) {
    int h = name.hashCode() * 31 + type.hashCode();
    for (int i = 0; i < attributes.size(); i++) {
      h = (h * 31 + attributes.name(i).hashCode()) * 31 + attributes.value(i).hashCode();
    }
    return h ^ (h >>> 16);
  }

  /**
   * The ordered hash ({@link SortedArrayMap#orderedHashCode}) of the record fields the key stands
   * for, by field name: its name ({@link RecordFields#NAME}), its type ({@link RecordFields#TYPE})
   * and its attributes, the two placed where their field names sort among the attributes'. A series
   * listing's row of the series hashes alike (a key with an attribute called name or type has no
   * such row: the fields would clash). Made once a key, as {@link String#hashCode} is: a
   * listing of a metric's buffered series looks each key up among the stored rows at every
   * request, and hashing the key anew was a quarter of that (docs/benchmarks.md).
   */
  public int recordFieldsHash() {
    int h = recordFieldsHash;
    if (h == 0) {
      h = orderedFieldsHash();
      recordFieldsHash = h; // a race makes the same value twice
    }
    return h;
  }

  private int orderedFieldsHash() {
    int h = SortedArrayMap.ORDERED_HASH_START;
    boolean nameDone = false;
    boolean typeDone = false;
    for (int i = 0; i <= attributes.size(); i++) {
      String next = i < attributes.size() ? attributes.name(i) : null;
      if (!nameDone && (next == null || RecordFields.NAME.compareTo(next) < 0)) {
        h = SortedArrayMap.orderedHashStep(h, RecordFields.NAME, name);
        nameDone = true;
      }
      if (!typeDone && (next == null || RecordFields.TYPE.compareTo(next) < 0)) {
        h = SortedArrayMap.orderedHashStep(h, RecordFields.TYPE, type);
        typeDone = true;
      }
      if (next != null) {
        h = SortedArrayMap.orderedHashStep(h, next, attributes.value(i));
      }
    }
    return h;
  }

  public static SeriesKey metric(String name, Map<String, String> attributes) {
    return new SeriesKey(name, METRIC, attributes);
  }

  public String name() {
    return name;
  }

  public String type() {
    return type;
  }

  /** The type as the codecs know it (looked up once: the ingest path asks per point). */
  public ValueType valueType() {
    return valueType;
  }

  /** The attributes sorted by name; index access ({@link AttributeMap#name}) spares an iterator. */
  public AttributeMap attributes() {
    return attributes;
  }

  /**
   * Characters of the name and the attribute values: the parts of a key that are its own, as
   * attribute names and types are words every key shares ({@link SeriesWords}).
   */
  public int valueCharacters() {
    return valueCharacters;
  }

  /** A short, stable identifier of this key (hex of a SHA-256 prefix over all its parts). */
  public String id() {
    digest();
    return HexFormat.of().toHexDigits(idBits);
  }

  /**
   * The bits {@link #id} prints: equal for equal keys, and the store takes two keys with the same
   * bits for one series (their records share ids).
   */
  public long idBits() {
    digest();
    return idBits;
  }

  /**
   * The identifier of name and type alone. Queries join records on name and type by default, so a
   * sharded store routes by this: all records a default join needs lie on one shard.
   */
  public String routingId() {
    digest();
    return HexFormat.of().toHexDigits(routingBits);
  }

  /**
   * Makes the first eight bytes of both digests, once a key: every record written names its series
   * by both, and two SHA-256 digests a record were a twelfth of writing a flush's records. Kept in
   * fields of the key rather than in an object of their own: a key lives long, and storing a new
   * object in it at its first record made the collector scan the key's card at every young
   * collection until that object was old (a third of the cards of a pause while a fleet's 180,000
   * keys wrote their first records; docs/benchmarks.md). Two threads may both make them; they
   * write the same bits.
   */
  private void digest() {
    if (digested) {
      return;
    }
    MessageDigest digest = sha256();
    update(digest, name);
    update(digest, type);
    long routing = first8(digest.digest());
    update(digest, name);
    update(digest, type);
    for (int i = 0; i < attributes.size(); i++) {
      update(digest, attributes.name(i));
      update(digest, attributes.value(i));
    }
    idBits = first8(digest.digest());
    routingBits = routing;
    digested = true;
  }

  private static long first8(byte[] digest) {
    long bits = 0;
    for (int i = 0; i < 8; i++) {
      bits = bits << 8 | (digest[i] & 0xFF);
    }
    return bits;
  }

  /**
   * One digest a thread, reset by each {@code digest()}: every record written asks for two ids,
   * and {@code MessageDigest.getInstance} looked the algorithm up in the providers and made the
   * digest by reflection each time.
   */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  });

  private static MessageDigest sha256() {
    MessageDigest digest = SHA_256.get();
    digest.reset(); // a digest an exception interrupted may hold a part
    return digest;
  }

  private static void update(MessageDigest digest, String part) {
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    // length prefix keeps ("ab","c") and ("a","bc") apart
    digest.update((byte) (bytes.length >>> 24));
    digest.update((byte) (bytes.length >>> 16));
    digest.update((byte) (bytes.length >>> 8));
    digest.update((byte) bytes.length);
    digest.update(bytes);
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof SeriesKey)) {
      return false;
    }
    SeriesKey that = (SeriesKey) other;
    return hash == that.hash
        && name.equals(that.name)
        && type.equals(that.type)
        && attributes.equals(that.attributes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return name + attributes + "(" + type + ")";
  }
}
