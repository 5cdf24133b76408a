package io.chronix.ingest.solr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded Solr node's RSA key pair, kept under {@code <solr home>/pki} and named to Solr by
 * the {@code pkiHandlerPrivateKeyPath} and {@code pkiHandlerPublicKeyPath} of the solr.xml the
 * server writes. Solr signs requests between the nodes of a cluster with it; a node whose solr.xml
 * names no pair makes a new one of 2,048 bits at every start, and under the launcher's JIT (the
 * quick compiler only, without the optimising compiler's big-integer intrinsics) that was 0.7-2.5 s
 * of a start's 4-5 s (docs/benchmarks.md). The pair is made once, on a data directory's first
 * start, by a thread of its own while the rest of the server starts: from the launcher's first
 * step on ({@link EmbeddedSolrNode#startMakingKeys}), beside the logging's and Jetty's start.
 *
 * <p>Files (the formats Solr reads for those settings, docs/deployment.md): {@code node-private.pem},
 * the private key as PKCS#8 in PEM, readable by the owner only; {@code node-public.der}, the public
 * key as X.509 SubjectPublicKeyInfo in DER. A pair that does not read back as one RSA pair (a
 * start killed while writing it, a file damaged) is made anew.
 */
final class NodeKeyPair {

  static final String DIRECTORY = "pki";
  static final String PRIVATE_KEY = "node-private.pem";
  static final String PUBLIC_KEY = "node-public.der";
  /** What Solr's own pair has (CryptoKeys.RSAKeyPair). */
  private static final int BITS = 2048;
  /** The properties solr.xml reads the two locations from. */
  static final String PRIVATE_KEY_PROPERTY = "chronix.pkiPrivateKey";
  static final String PUBLIC_KEY_PROPERTY = "chronix.pkiPublicKey";
  private static final long WRITE_TIMEOUT_SECONDS = 120;
  /** Pairs being made, by directory: who asks again while one is made gets that one. */
  private static final Map<Path, NodeKeyPair> MAKING = new HashMap<>();

  private final Path privateKey;
  private final Path publicKey;
  private final CompletableFuture<Void> written;

  private NodeKeyPair(Path dir, CompletableFuture<Void> written) {
    this.privateKey = dir == null ? null : dir.resolve(PRIVATE_KEY);
    this.publicKey = dir == null ? null : dir.resolve(PUBLIC_KEY);
    this.written = written;
  }

  /** No pair: for a solr.xml of the operator's, which names its own or lets Solr make one. */
  static NodeKeyPair none() {
    return new NodeKeyPair(null, CompletableFuture.completedFuture(null));
  }

  /**
   * The pair under {@code solrHome}: the one there if it reads back, else one being made by a
   * thread of its own ({@link #awaitWritten} waits for it).
   */
  static NodeKeyPair under(Path solrHome) {
    Path dir = solrHome.toAbsolutePath().normalize().resolve(DIRECTORY);
    synchronized (MAKING) {
      NodeKeyPair making = MAKING.get(dir);
      if (making != null) {
        return making;
      }
      if (readsBack(dir)) {
        return new NodeKeyPair(dir, CompletableFuture.completedFuture(null));
      }
      CompletableFuture<Void> written = new CompletableFuture<>();
      NodeKeyPair pair = new NodeKeyPair(dir, written);
      Thread maker = new Thread(() -> {
        try {
          pair.write(dir);
          written.complete(null);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
          written.completeExceptionally(e);
        } finally {
          synchronized (MAKING) {
            MAKING.remove(dir);
          }
        }
      }, "chronix-node-keys");
      maker.setDaemon(true);
      MAKING.put(dir, pair);
      maker.start();
      return pair;
    }
  }

  /** Waits until both files are in place; fails naming the directory if they could not be written. */
  void awaitWritten() throws IOException {
    try {
      written.get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException("could not write the Solr node's key pair to " + privateKey.getParent() + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("the Solr node's key pair was not written to " + privateKey.getParent() + " within "
          + WRITE_TIMEOUT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the Solr node's key pair", e);
    }
  }

  /** The two locations as the URLs solr.xml's settings take. */
  Properties solrProperties() {
    Properties properties = new Properties();
    if (privateKey == null) {
      return properties;
    }
    properties.setProperty(PRIVATE_KEY_PROPERTY, privateKey.toUri().toString());
    properties.setProperty(PUBLIC_KEY_PROPERTY, publicKey.toUri().toString());
    return properties;
  }

  Path privateKey() {
    return privateKey;
  }

  Path publicKey() {
    return publicKey;
  }

  private void write(Path dir) throws IOException, GeneralSecurityException {
    Files.createDirectories(dir);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(BITS);
    KeyPair pair = generator.generateKeyPair();
    String pem = "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(pair.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
    // the private key first: a pair is taken only when both files read back as one
    replace(privateKey, pem.getBytes(StandardCharsets.US_ASCII), true);
    replace(publicKey, pair.getPublic().getEncoded(), false);
    log().info("wrote the Solr node's key pair to {}", dir);
  }

  /** Writes beside the target and moves over it, so that a reader never sees half a key. */
  private static void replace(Path target, byte[] content, boolean ownerOnly) throws IOException {
    Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
    Files.deleteIfExists(temporary);
    if (ownerOnly && target.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } else {
      Files.createFile(temporary);
    }
    Files.write(temporary, content);
    try {
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * Looked up when something is logged: the pair is asked for before the logging has started,
   * and starting it is not to hold the pair's thread back.
   */
  private static Logger log() {
    return LoggerFactory.getLogger(NodeKeyPair.class);
  }

  /** Whether both files are there and hold the two halves of one RSA pair. */
  private static boolean readsBack(Path dir) {
    Path privateKey = dir.resolve(PRIVATE_KEY);
    Path publicKey = dir.resolve(PUBLIC_KEY);
    if (!Files.isRegularFile(privateKey) || !Files.isRegularFile(publicKey)) {
      return false;
    }
    try {
      String pem = Files.readString(privateKey, StandardCharsets.US_ASCII)
          .replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "");
      KeyFactory rsa = KeyFactory.getInstance("RSA");
      RSAPrivateCrtKey secret = (RSAPrivateCrtKey) rsa.generatePrivate(
          new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem)));
      RSAPublicKey open = (RSAPublicKey) rsa.generatePublic(new X509EncodedKeySpec(Files.readAllBytes(publicKey)));
      if (secret.getModulus().equals(open.getModulus()) && secret.getPublicExponent().equals(open.getPublicExponent())) {
        return true;
      }
      log().warn("the Solr node's keys in {} are not one pair: making a new pair", dir);
    } catch (IOException | GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
      log().warn("the Solr node's keys in {} do not read back ({}): making a new pair", dir, e.toString());
    }
    return false;
  }
}
