package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Signature;
import java.util.Base64;
import java.util.Properties;
import org.apache.solr.util.CryptoKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded node's key pair: made once, in Solr's formats, kept, made anew when damaged. */
class NodeKeyPairTest {

  @TempDir Path home;

  private static NodeKeyPair written(Path home) throws IOException {
    NodeKeyPair pair = NodeKeyPair.under(home);
    pair.awaitWritten();
    return pair;
  }

  /** The pair as Solr reads it from the locations solr.xml is given. */
  private static CryptoKeys.RSAKeyPair solrReads(NodeKeyPair pair) throws Exception {
    Properties properties = pair.solrProperties();
    return new CryptoKeys.RSAKeyPair(URI.create(properties.getProperty(NodeKeyPair.PRIVATE_KEY_PROPERTY)).toURL(),
        URI.create(properties.getProperty(NodeKeyPair.PUBLIC_KEY_PROPERTY)).toURL());
  }

  @Test
  void aFreshHomeGetsOnePairInTheFormsSolrReads() throws Exception {
    NodeKeyPair pair = written(home);
    assertEquals(home.resolve("pki").resolve("node-private.pem"), pair.privateKey());
    assertEquals(home.resolve("pki").resolve("node-public.der"), pair.publicKey());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pair.privateKey())));
    assertTrue(Files.readString(pair.privateKey(), StandardCharsets.US_ASCII).startsWith("-----BEGIN PRIVATE KEY-----\n"));

    assertOnePairSolrReads(pair);
    assertEquals(256, solrReads(pair).getKeySizeInBytes(), "2048 bits, as Solr's own pair");
    assertFalse(Files.exists(pair.privateKey().resolveSibling("node-private.pem.tmp")));
  }

  @Test
  void aPairThereIsKept() throws Exception {
    NodeKeyPair first = written(home);
    byte[] privateKey = Files.readAllBytes(first.privateKey());
    byte[] publicKey = Files.readAllBytes(first.publicKey());
    NodeKeyPair again = written(home);
    assertArrayEquals(privateKey, Files.readAllBytes(again.privateKey()));
    assertArrayEquals(publicKey, Files.readAllBytes(again.publicKey()));
  }

  @Test
  void whoAsksWhileAPairIsMadeGetsThatOne() throws Exception {
    // the launcher asks first, the node it then builds asks again: one pair, made once
    NodeKeyPair first = NodeKeyPair.under(home);
    NodeKeyPair second = NodeKeyPair.under(home.resolve("..").resolve(home.getFileName()));
    assertSame(first, second, "making a 2,048-bit pair takes far longer than asking twice");
    second.awaitWritten();
    byte[] publicKey = Files.readAllBytes(first.publicKey());
    assertOnePairSolrReads(first);
    assertArrayEquals(publicKey, Files.readAllBytes(written(home).publicKey()), "and then kept");
  }

  @Test
  void aDamagedOrHalfPairIsMadeAnew() throws Exception {
    NodeKeyPair pair = written(home);
    byte[] publicKey = Files.readAllBytes(pair.publicKey());

    Files.writeString(pair.privateKey(), "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n");
    assertMadeAnew(publicKey);

    publicKey = Files.readAllBytes(pair.publicKey());
    Files.delete(pair.publicKey()); // a start killed between the two files
    assertMadeAnew(publicKey);

    // two halves of different pairs
    publicKey = Files.readAllBytes(pair.publicKey());
    Path other = home.resolve("other");
    Files.copy(written(other).publicKey(), pair.publicKey(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertMadeAnew(publicKey);
  }

  private void assertMadeAnew(byte[] publicKeyBefore) throws Exception {
    NodeKeyPair pair = written(home);
    assertFalse(java.util.Arrays.equals(publicKeyBefore, Files.readAllBytes(pair.publicKey())), "a new pair");
    assertOnePairSolrReads(pair);
  }

  /** Solr reads the public half from the file, and what it signs with the private half that verifies. */
  private static void assertOnePairSolrReads(NodeKeyPair pair) throws Exception {
    CryptoKeys.RSAKeyPair solr = solrReads(pair);
    assertEquals(Base64.getEncoder().encodeToString(Files.readAllBytes(pair.publicKey())), solr.getPublicKeyStr());
    byte[] message = "GET /solr/chronix/select".getBytes(StandardCharsets.UTF_8);
    Signature verify = Signature.getInstance("SHA256withRSA");
    verify.initVerify(solr.getPublicKey());
    verify.update(message);
    assertTrue(verify.verify(solr.signSha256(message)), "the two files hold one pair");
  }

  @Test
  void aPairThatCannotBeWrittenFailsNamingWhere() throws Exception {
    Files.writeString(home.resolve("pki"), "a file where the directory goes");
    IOException failure = assertThrows(IOException.class, () -> NodeKeyPair.under(home).awaitWritten());
    assertTrue(failure.getMessage().contains("could not write the Solr node's key pair to " + home.resolve("pki")),
        failure.getMessage());
  }
}
