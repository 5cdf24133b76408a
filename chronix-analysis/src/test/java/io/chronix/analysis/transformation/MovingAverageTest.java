package io.chronix.analysis.transformation;

import static io.chronix.analysis.TestSeries.SECOND;
import static io.chronix.analysis.TestSeries.atSeconds;
import static io.chronix.analysis.TestSeries.perSecond;
import static io.chronix.analysis.transformation.TransformationTestSupport.transform;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MovingAverageTest {

  @Test
  void averagesOverTheTimeWindowEndingAtEachPoint() {
    // window (t-3s, t]: at 3 s it holds 1 s, 2 s, 3 s
    Points series = perSecond(1, 2, 3, 4, 5);
    assertEquals(perSecond(1, 1.5, 2, 3, 4), transform("movavg:3,seconds", series));
  }

  @Test
  void irregularSamplingUsesTimeNotSampleCount() {
    Points series = atSeconds(0, 10, 50, 20, 60, 30, 65, 40, 200, 0);
    // one-minute window: at 60 s the point at 0 s is exactly a window away and excluded
    Points expected = atSeconds(0, 10, 50, 15, 60, 25, 65, 30, 200, 0);
    assertEquals(expected, transform("movavg:1,minute", series));
  }

  @Test
  void unitsAreCaseInsensitiveAndShorthandsWork() {
    Points series = perSecond(1, 2, 3, 4, 5);
    Points expected = transform("movavg:2000,MILLIS", series);
    assertEquals(expected, transform("movavg:2,s", series));
    assertEquals(expected, transform("MovAvg:2,Seconds", series));
    assertEquals(expected, transform("movavg:2,second", series));
  }

  @Test
  void matchesANaiveAverageOnRandomData() {
    Random random = new Random(3);
    Points series = new Points();
    long t = 0;
    for (int i = 0; i < 400; i++) {
      t += random.nextInt(30) * SECOND;
      series.add(t, random.nextGaussian() * 100);
    }
    Points averaged = transform("movavg:2,minutes", series);
    assertEquals(series.size(), averaged.size());
    for (int i = 0; i < series.size(); i++) {
      long now = series.timestamp(i);
      double sum = 0;
      int count = 0;
      for (int j = 0; j < series.size(); j++) {
        if (series.timestamp(j) > now - 120 * SECOND && series.timestamp(j) <= now) {
          sum += series.value(j);
          count++;
        }
      }
      assertEquals(now, averaged.timestamp(i));
      assertEquals(sum / count, averaged.value(i), 1e-9);
    }
  }

  @Test
  void nanValuesAreLeftOut() {
    Points series = perSecond(2, Double.NaN, 4);
    Points averaged = transform("movavg:10,s", series);
    assertEquals(perSecond(2, 2, 3), averaged);
  }
}
