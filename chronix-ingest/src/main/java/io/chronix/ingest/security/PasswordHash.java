package io.chronix.ingest.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Password hashes as the config stores them: {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}
 * (base64), PBKDF2 with HMAC-SHA-256 from the JDK. Slow on purpose; {@link Credentials} caches
 * successful checks so that a client sending its password with every request pays once.
 */
public final class PasswordHash {

  public static final String SCHEME = "pbkdf2-sha256";
  /** OWASP's recommendation for PBKDF2-HMAC-SHA256. */
  static final int ITERATIONS = 600_000;
  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 256;
  private static final SecureRandom RANDOM = new SecureRandom();

  private PasswordHash() {}

  public static String hash(char[] password) {
    return hash(password, ITERATIONS);
  }

  static String hash(char[] password, int iterations) {
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
    return SCHEME + "$" + iterations + "$" + base64.encodeToString(salt) + "$"
        + base64.encodeToString(derive(password, salt, iterations));
  }

  /** @throws IllegalArgumentException when the stored text is no hash of this scheme */
  public static void check(String stored, String where) {
    parse(stored, where);
  }

  public static boolean matches(String stored, char[] password) {
    Parsed parsed = parse(stored, "password hash");
    return MessageDigest.isEqual(parsed.hash, derive(password, parsed.salt, parsed.iterations));
  }

  private record Parsed(int iterations, byte[] salt, byte[] hash) {}

  private static Parsed parse(String stored, String where) {
    String[] parts = stored.split("\\$");
    if (parts.length != 4 || !parts[0].equals(SCHEME)) {
      throw new IllegalArgumentException(where + ": not a " + SCHEME
          + "$<iterations>$<salt>$<hash> password hash (make one with: chronix passwd)");
    }
    try {
      int iterations = Integer.parseInt(parts[1]);
      if (iterations < 10_000) {
        throw new IllegalArgumentException(where + ": " + iterations + " iterations are too few (at least 10000)");
      }
      return new Parsed(iterations, Base64.getDecoder().decode(parts[2]), Base64.getDecoder().decode(parts[3]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + ": iteration count '" + parts[1] + "' is not a number");
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(where)) {
        throw e;
      }
      throw new IllegalArgumentException(where + ": salt or hash is not base64");
    }
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    try {
      PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
      try {
        return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
      } finally {
        spec.clearPassword();
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
    }
  }

  /** SHA-256 of a secret that is random enough not to need a slow hash (API tokens). */
  public static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
