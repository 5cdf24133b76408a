package io.chronix.ingest.solr;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A ZooKeeper ensemble as SolrCloud names it: {@code host:port[,host:port...][/chroot]}.
 *
 * @param hosts {@code host:port} of each ensemble member
 * @param chroot the path under which the cluster keeps its state, if any
 */
public record ZkAddress(List<String> hosts, Optional<String> chroot) {

  public static ZkAddress parse(String address) {
    String text = address.trim();
    if (text.isEmpty()) {
      throw new IllegalArgumentException("solr.zkHost is empty");
    }
    int slash = text.indexOf('/');
    Optional<String> chroot = Optional.empty();
    String ensemble = text;
    if (slash >= 0) {
      String root = text.substring(slash);
      ensemble = text.substring(0, slash);
      if (root.length() > 1) {
        if (root.endsWith("/") || root.contains("//")) {
          throw new IllegalArgumentException("solr.zkHost '" + address + "': the chroot " + root
              + " must be a path like /solr");
        }
        chroot = Optional.of(root);
      }
    }
    List<String> hosts = new ArrayList<>();
    for (String host : ensemble.split(",")) {
      String member = host.trim();
      int colon = member.lastIndexOf(':');
      if (colon <= 0 || colon == member.length() - 1) {
        throw new IllegalArgumentException("solr.zkHost '" + address + "': '" + member
            + "' is not host:port (a ZooKeeper ensemble is host:port[,host:port...][/chroot])");
      }
      try {
        int port = Integer.parseInt(member.substring(colon + 1));
        if (port < 1 || port > 65535) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("solr.zkHost '" + address + "': the port of '" + member
            + "' is not a number from 1 to 65535");
      }
      hosts.add(member);
    }
    return new ZkAddress(List.copyOf(hosts), chroot);
  }

  @Override
  public String toString() {
    return String.join(",", hosts) + chroot.orElse("");
  }
}
