package io.chronix.core.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class PrometheusNamesTest {

  @Test
  void validNamesStayAndOthersAreEscapedReversibly() {
    assertEquals("host", PrometheusNames.escape("host"));
    assertEquals("U__host_2e_name", PrometheusNames.escape("host.name"));
    assertEquals("U__a____b_2e_", PrometheusNames.escape("a__b."), "underscores double in an escaped name");
    assertEquals("U___31_xx", PrometheusNames.escape("1xx"), "a digit may not start a name");
    assertEquals("U__caf_e9_", PrometheusNames.escape("café"));
    for (String name : new String[] {"host.name", "1xx", "café", "a b-c", "_x.y", "emoji😀"}) {
      assertEquals(name, PrometheusNames.unescape(PrometheusNames.escape(name)), name);
    }
    assertEquals("U__bad_zz_", PrometheusNames.unescape("U__bad_zz_"), "not a valid escape: left as it is");
  }

  @Test
  void attributesAndLabelsMapBothWays() {
    assertEquals("name", PrometheusNames.fieldOf("__name__"));
    assertEquals("host", PrometheusNames.fieldOf("host"));
    assertEquals("tag_type", PrometheusNames.fieldOf("type"), "record field names are stored as tag_<key>");
    assertEquals("tag__x", PrometheusNames.fieldOf("_x"));
    assertEquals("host.name", PrometheusNames.fieldOf("U__host_2e_name"));
    assertEquals("type", PrometheusNames.labelOf("tag_type"));
    assertEquals("_x", PrometheusNames.labelOf("tag__x"));
    assertEquals("tag_other", PrometheusNames.labelOf("tag_other"));
    assertEquals("host.name", PrometheusNames.labelOf("host.name"), "escaping is for answers, not for labels");
    assertNull(PrometheusNames.labelOf(SeriesOrigin.INFLUX_FIELD), "origin attributes are not labels");
    assertNull(PrometheusNames.labelOf("start"));
    assertNull(PrometheusNames.labelOf("_version_"));
  }
}
