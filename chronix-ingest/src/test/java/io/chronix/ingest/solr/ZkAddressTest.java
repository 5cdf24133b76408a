package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ZkAddressTest {

  @Test
  void ensembleAndChrootAsSolrCloudWritesThem() {
    assertEquals(new ZkAddress(List.of("zk1:2181"), Optional.empty()), ZkAddress.parse("zk1:2181"));
    assertEquals(new ZkAddress(List.of("zk1:2181", "10.0.0.2:2182"), Optional.of("/solr")),
        ZkAddress.parse(" zk1:2181, 10.0.0.2:2182/solr "));
    assertEquals(new ZkAddress(List.of("[::1]:2181"), Optional.of("/a/b")), ZkAddress.parse("[::1]:2181/a/b"));
    assertEquals(Optional.empty(), ZkAddress.parse("zk1:2181/").chroot());
    assertEquals("zk1:2181,zk2:2181/solr", ZkAddress.parse("zk1:2181,zk2:2181/solr").toString());
  }

  @Test
  void malformedAddressesAreRefusedNamingThePart() {
    for (String[] bad : new String[][] {
        {"", "is empty"}, {"zk1", "'zk1' is not host:port"}, {"zk1:", "'zk1:' is not host:port"},
        {"zk1:2181,,zk2:2181", "'' is not host:port"}, {"zk1:21x81", "the port of 'zk1:21x81'"},
        {"zk1:70000", "the port of 'zk1:70000'"}, {"zk1:2181/solr/", "the chroot /solr/"},
        {"zk1:2181//solr", "the chroot //solr"}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ZkAddress.parse(bad[0]), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]), bad[0] + ": " + e.getMessage());
    }
  }
}
