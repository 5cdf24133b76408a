package io.chronix.solr.distributed;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.solr.cloud.ZkController;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.core.CoreContainer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Proves that the internal parameters of a shard request ({@link ShardParams#INTERNAL}: partial
 * answers, reference series resolved by the coordinator) come from a coordinator of this cluster:
 * an HMAC-SHA-256 over them and a timestamp, with a secret the nodes share. A client that sends
 * them itself, to inject reference series or blobs, gets a 403.
 *
 * <p>The secret: the system property {@code chronix.shardSecret} where set (the same on every
 * node), else a random one that the first node creates in ZooKeeper ({@value #ZK_PATH}) and every
 * node reads. A node without either (standalone, no property) accepts no internal parameters.
 */
public final class ShardSignature {

  public static final String SIGNATURE = "chronix.sig";
  public static final String SIGNED_AT = "chronix.sigTime";
  static final String ZK_PATH = "/chronix/shard-secret";
  private static final String PROPERTY = "chronix.shardSecret";
  private static final long MAX_SKEW_MILLIS = 5 * 60_000L;
  private static final String CACHE_KEY = ShardSignature.class.getName();

  private final byte[] secret;

  private ShardSignature(byte[] secret) {
    this.secret = secret;
  }

  /** The signature of this node's cluster, if it has a secret. */
  public static Optional<ShardSignature> of(CoreContainer container) {
    ShardSignature cached = container.getObjectCache().get(CACHE_KEY, ShardSignature.class);
    if (cached != null) {
      return Optional.of(cached);
    }
    byte[] secret = secret(container);
    if (secret == null) {
      return Optional.empty();
    }
    ShardSignature signature = new ShardSignature(secret);
    container.getObjectCache().put(CACHE_KEY, signature);
    return Optional.of(signature);
  }

  private static byte[] secret(CoreContainer container) {
    String property = System.getProperty(PROPERTY);
    if (property != null && !property.isBlank()) {
      return property.getBytes(StandardCharsets.UTF_8);
    }
    ZkController zk = container.getZkController();
    return zk == null ? null : fromZooKeeper(zk.getZkClient());
  }

  private static byte[] fromZooKeeper(SolrZkClient zk) {
    try {
      if (!zk.exists(ZK_PATH, true)) {
        byte[] fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        try {
          zk.makePath(ZK_PATH, Base64.getEncoder().encode(fresh), CreateMode.PERSISTENT, null, true, true);
        } catch (KeeperException.NodeExistsException anotherNodeWasFirst) {
          // read what it wrote
        }
      }
      return Base64.getDecoder().decode(zk.getData(ZK_PATH, null, null, true));
    } catch (KeeperException e) {
      throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "cannot read the shard secret from ZooKeeper: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SolrException(SolrException.ErrorCode.SERVER_ERROR, "interrupted reading the shard secret", e);
    }
  }

  /** Adds the time and the signature over the internal parameters present. */
  public void sign(ModifiableSolrParams params) {
    String signedAt = String.valueOf(System.currentTimeMillis());
    params.set(SIGNED_AT, signedAt);
    params.set(SIGNATURE, mac(params, signedAt));
  }

  /** Refuses a request that carries internal parameters without a valid, recent signature. */
  public static void verify(SolrParams params, CoreContainer container) {
    if (!anyInternal(params)) {
      return;
    }
    Optional<ShardSignature> signature = of(container);
    String why = signature.isEmpty() ? "this node has no shard secret (chronix.shardSecret)" : signature.get().problem(params);
    if (why != null) {
      throw new SolrException(SolrException.ErrorCode.FORBIDDEN, "parameters " + ShardParams.INTERNAL
          + " are internal to distributed queries and only accepted from a coordinator of the cluster: " + why);
    }
  }

  /** Asked of every query: a loop, not a stream (1 % of a one-hour `max` in the quick compiler's code). */
  private static boolean anyInternal(SolrParams params) {
    for (String name : ShardParams.INTERNAL) {
      if (params.get(name) != null) {
        return true;
      }
    }
    return false;
  }

  private String problem(SolrParams params) {
    String given = params.get(SIGNATURE);
    String signedAt = params.get(SIGNED_AT);
    if (given == null || signedAt == null) {
      return "the request is not signed";
    }
    long at;
    try {
      at = Long.parseLong(signedAt);
    } catch (NumberFormatException e) {
      return "malformed " + SIGNED_AT;
    }
    if (Math.abs(System.currentTimeMillis() - at) > MAX_SKEW_MILLIS) {
      return "the signature is too old or from the future";
    }
    return MessageDigest.isEqual(given.getBytes(StandardCharsets.US_ASCII),
        mac(params, signedAt).getBytes(StandardCharsets.US_ASCII)) ? null : "the signature does not match";
  }

  private String mac(SolrParams params, String signedAt) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      update(mac, signedAt);
      for (String name : ShardParams.INTERNAL) {
        String[] values = params.getParams(name);
        update(mac, name);
        update(mac, values == null ? "" : String.valueOf(values.length));
        for (String value : values == null ? new String[0] : values) {
          update(mac, value);
        }
      }
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Length-prefixed, so that ("ab","c") and ("a","bc") sign differently. */
  private static void update(Mac mac, String part) {
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    mac.update(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16), (byte) (bytes.length >>> 8),
        (byte) bytes.length});
    mac.update(bytes);
  }
}
