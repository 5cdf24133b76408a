package io.chronix.ingest.security;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.servlet.http.HttpServletRequest;

/**
 * The users (password, HTTP Basic) and API tokens (bearer) of the config, each with its roles,
 * and the check of a request's credentials against them. Passwords and tokens are stored hashed
 * only ({@link PasswordHash}; tokens as {@code sha256$<hex>}: they are random, a fast hash is
 * enough).
 *
 * <p>Accepted forms: {@code Authorization: Basic}, {@code Authorization: Bearer <token>} (also
 * InfluxDB 2's {@code Token <token>}), and InfluxDB 1's {@code u} and {@code p} parameters.
 */
public final class Credentials {

  /** Who a request comes from. */
  public record Caller(String name, Set<Role> roles) {}

  static final String TOKEN_SCHEME = "sha256";
  private static final long CACHE_NANOS = TimeUnit.MINUTES.toNanos(5);
  private static final int CACHE_LIMIT = 10_000;

  private record User(String name, Set<Role> roles, String passwordHash) {}

  private record Token(String name, Set<Role> roles, byte[] hash) {}

  private final Map<String, User> users;
  private final Token[] tokens;
  /** Successful password checks: key to expiry, so a client sending its password each time pays once. */
  private final Map<String, Long> verified = new ConcurrentHashMap<>();
  /** PBKDF2 is slow by design; bounding the checks at once keeps failed logins from eating the CPU. */
  private final Semaphore slowChecks = new Semaphore(2);
  private final LongSupplier nanos;

  private Credentials(Map<String, User> users, Token[] tokens, LongSupplier nanos) {
    this.users = users;
    this.tokens = tokens;
    this.nanos = nanos;
  }

  /**
   * Reads {@code auth.user.<name>.roles}/{@code .password} and {@code auth.token.<name>.roles}/
   * {@code .sha256} from the settings.
   */
  public static Credentials parse(Map<String, String> settings) {
    Map<String, String[]> userParts = new LinkedHashMap<>();
    Map<String, String[]> tokenParts = new LinkedHashMap<>();
    for (Map.Entry<String, String> setting : settings.entrySet()) {
      String key = setting.getKey();
      if (key.startsWith("auth.user.")) {
        collect(userParts, key, key.substring("auth.user.".length()), setting.getValue(), "password");
      } else if (key.startsWith("auth.token.")) {
        collect(tokenParts, key, key.substring("auth.token.".length()), setting.getValue(), TOKEN_SCHEME);
      }
    }
    Map<String, User> users = new LinkedHashMap<>();
    for (Map.Entry<String, String[]> entry : userParts.entrySet()) {
      String where = "auth.user." + entry.getKey();
      String[] parts = complete(entry.getValue(), where, "password");
      PasswordHash.check(parts[1], where + ".password");
      users.put(entry.getKey(), new User(entry.getKey(), Role.parseList(parts[0], where + ".roles"), parts[1]));
    }
    Token[] tokens = new Token[tokenParts.size()];
    int i = 0;
    for (Map.Entry<String, String[]> entry : tokenParts.entrySet()) {
      String where = "auth.token." + entry.getKey();
      String[] parts = complete(entry.getValue(), where, TOKEN_SCHEME);
      tokens[i++] = new Token(entry.getKey(), Role.parseList(parts[0], where + ".roles"), tokenHash(parts[1], where));
    }
    return new Credentials(users, tokens, System::nanoTime);
  }

  private static void collect(Map<String, String[]> parts, String key, String rest, String value, String secret) {
    int dot = rest.lastIndexOf('.');
    String name = dot <= 0 ? "" : rest.substring(0, dot);
    String part = dot <= 0 ? rest : rest.substring(dot + 1);
    if (name.isEmpty() || !(part.equals("roles") || part.equals(secret))) {
      throw new IllegalArgumentException("unknown setting '" + key + "': expected " + key.substring(0, key.length()
          - rest.length()) + "<name>.roles or ." + secret);
    }
    parts.computeIfAbsent(name, n -> new String[2])[part.equals("roles") ? 0 : 1] = value.trim();
  }

  private static String[] complete(String[] parts, String where, String secret) {
    if (parts[0] == null || parts[1] == null) {
      throw new IllegalArgumentException(where + " needs both ." + "roles and ." + secret);
    }
    return parts;
  }

  private static byte[] tokenHash(String stored, String where) {
    if (!stored.startsWith(TOKEN_SCHEME + "$")) {
      throw new IllegalArgumentException(where + ".sha256: expected sha256$<64 hex digits> (make one with: chronix token)");
    }
    try {
      byte[] hash = HexFormat.of().parseHex(stored.substring(TOKEN_SCHEME.length() + 1));
      if (hash.length != 32) {
        throw new IllegalArgumentException(where + ".sha256: a SHA-256 hash has 64 hex digits");
      }
      return hash;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ".sha256: expected sha256$<64 hex digits> (make one with: chronix token)");
    }
  }

  /** The stored form of a token. */
  public static String hashToken(String token) {
    return TOKEN_SCHEME + "$" + HexFormat.of().formatHex(PasswordHash.sha256(token));
  }

  public boolean isEmpty() {
    return users.isEmpty() && tokens.length == 0;
  }

  /** Outcome of looking at a request's credentials. */
  public sealed interface Check permits Anonymous, Accepted, Refused, Busy {}

  /** The request carries no credentials. */
  public record Anonymous() implements Check {}

  public record Accepted(Caller caller) implements Check {}

  /** Credentials that match no user or token. */
  public record Refused(String why) implements Check {}

  /** Too many password checks at once; the client should retry. */
  public record Busy() implements Check {}

  public Check check(HttpServletRequest request) {
    String header = request.getHeader("Authorization");
    if (header != null && !header.isBlank()) {
      String[] parts = header.trim().split("\\s+", 2);
      String scheme = parts[0].toLowerCase(java.util.Locale.ROOT);
      String value = parts.length > 1 ? parts[1].trim() : "";
      switch (scheme) {
        case "basic":
          return basic(value);
        case "bearer":
        case "token":
          return token(value);
        default:
          return new Refused("unsupported Authorization scheme '" + parts[0] + "' (Basic, Bearer)");
      }
    }
    // from the query string only: asking the container for parameters would consume a form body
    Map<String, String> query = queryParameters(request.getQueryString());
    String user = query.get("u");
    if (user != null) {
      return password(user, query.getOrDefault("p", ""));
    }
    return new Anonymous();
  }

  private static Map<String, String> queryParameters(String queryString) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (queryString == null) {
      return parameters;
    }
    for (String pair : queryString.split("&")) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      try {
        parameters.putIfAbsent(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException malformed) {
        // a parameter that does not decode names no credentials
      }
    }
    return parameters;
  }

  private Check basic(String encoded) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return new Refused("Basic credentials are not base64");
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return new Refused("Basic credentials lack the ':' between user and password");
    }
    return password(decoded.substring(0, colon), decoded.substring(colon + 1));
  }

  private Check password(String name, String password) {
    User user = users.get(name);
    if (user == null) {
      return new Refused("unknown user or wrong password");
    }
    String key = name + '\0' + HexFormat.of().formatHex(PasswordHash.sha256(password));
    Long expiry = verified.get(key);
    long now = nanos.getAsLong();
    if (expiry != null && expiry - now > 0) {
      return new Accepted(new Caller(name, user.roles()));
    }
    boolean acquired;
    try {
      acquired = slowChecks.tryAcquire(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Busy();
    }
    if (!acquired) {
      return new Busy();
    }
    try {
      if (!PasswordHash.matches(user.passwordHash(), password.toCharArray())) {
        return new Refused("unknown user or wrong password");
      }
    } finally {
      slowChecks.release();
    }
    if (verified.size() >= CACHE_LIMIT) {
      verified.clear();
    }
    verified.put(key, now + CACHE_NANOS);
    return new Accepted(new Caller(name, user.roles()));
  }

  private Check token(String token) {
    byte[] hash = PasswordHash.sha256(token);
    for (Token candidate : tokens) {
      if (MessageDigest.isEqual(candidate.hash(), hash)) {
        return new Accepted(new Caller(candidate.name(), candidate.roles()));
      }
    }
    return new Refused("unknown token");
  }

}
