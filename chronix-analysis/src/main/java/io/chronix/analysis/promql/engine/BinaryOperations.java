package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.BinaryExpr;
import io.chronix.analysis.promql.ast.BinaryOp;
import io.chronix.analysis.promql.ast.VectorMatching;
import io.chronix.analysis.promql.model.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binary operators between scalars and vectors, with Prometheus' vector matching: signatures on
 * the {@code on} labels or all but the {@code ignoring} ones, one-to-one unless
 * {@code group_left/right}, set operators many-to-many. Signatures are computed once per series;
 * which series pair up is decided per step, because presence changes from step to step.
 */
final class BinaryOperations {

  private final Evaluator evaluator;
  private final int steps;

  BinaryOperations(Evaluator evaluator) {
    this.evaluator = evaluator;
    this.steps = evaluator.grid.steps();
  }

  Value eval(BinaryExpr expr) {
    Value lhs = evaluator.eval(expr.lhs());
    Value rhs = evaluator.eval(expr.rhs());
    if (lhs instanceof Value.Scalar l && rhs instanceof Value.Scalar r) {
      double[] out = new double[steps];
      for (int i = 0; i < steps; i++) {
        out[i] = scalarOp(expr.op(), l.values()[i], r.values()[i]);
      }
      return new Value.Scalar(out);
    }
    if (lhs instanceof Value.Vector l && rhs instanceof Value.Scalar r) {
      return vectorScalar(expr, l, r.values(), false);
    }
    if (lhs instanceof Value.Scalar l && rhs instanceof Value.Vector r) {
      return vectorScalar(expr, r, l.values(), true);
    }
    Value.Vector l = (Value.Vector) lhs;
    Value.Vector r = (Value.Vector) rhs;
    switch (expr.op()) {
      case AND:
      case OR:
      case UNLESS:
        return setOperation(expr, l, r);
      default:
        return vectorVector(expr, l, r);
    }
  }

  static double scalarOp(BinaryOp op, double lhs, double rhs) {
    switch (op) {
      case ADD:
        return lhs + rhs;
      case SUB:
        return lhs - rhs;
      case MUL:
        return lhs * rhs;
      case DIV:
        return lhs / rhs;
      case POW:
        return pow(lhs, rhs);
      case MOD:
        return lhs % rhs;
      case ATAN2:
        return Math.atan2(lhs, rhs);
      case EQLC:
        return lhs == rhs ? 1 : 0;
      case NEQ:
        return lhs != rhs ? 1 : 0;
      case GTR:
        return lhs > rhs ? 1 : 0;
      case LSS:
        return lhs < rhs ? 1 : 0;
      case GTE:
        return lhs >= rhs ? 1 : 0;
      case LTE:
        return lhs <= rhs ? 1 : 0;
      default:
        throw new IllegalStateException("operator " + op + " between scalars");
    }
  }

  /** Go's math.Pow, which differs from Java's for 1^NaN, (-1)^±Inf and x^±0 with NaN x. */
  static double pow(double x, double y) {
    if (y == 0 || x == 1) {
      return 1;
    }
    if (x == -1 && Double.isInfinite(y)) {
      return 1;
    }
    return Math.pow(x, y);
  }

  private static boolean compare(BinaryOp op, double lhs, double rhs) {
    return scalarOp(op, lhs, rhs) == 1;
  }

  private static boolean changesSchema(BinaryOp op) {
    return !op.isComparison() && !op.isSetOperator();
  }

  private Value vectorScalar(BinaryExpr expr, Value.Vector vector, double[] scalar, boolean scalarOnLeft) {
    BinaryOp op = expr.op();
    boolean dropName = changesSchema(op) || expr.returnBool();
    VectorBuilder out = new VectorBuilder(steps);
    for (StepSeries s : vector.series()) {
      Labels labels = dropName ? s.labels.withoutMetricName() : s.labels;
      StepSeries result = new StepSeries(labels, steps);
      for (int i = 0; i < steps; i++) {
        if (!s.has(i)) {
          continue;
        }
        double v = s.get(i);
        double l = scalarOnLeft ? scalar[i] : v;
        double r = scalarOnLeft ? v : scalar[i];
        if (op.isComparison()) {
          boolean keep = compare(op, l, r);
          if (expr.returnBool()) {
            result.set(i, keep ? 1 : 0);
          } else if (keep) {
            result.set(i, v);
          }
        } else {
          result.set(i, scalarOp(op, l, r));
        }
      }
      if (!result.isEmpty()) {
        out.addAll(result);
      }
    }
    return out.build();
  }

  /** The matching signature of each series: the on-labels, or all but ignoring-labels and the name. */
  private static int[] signatures(List<StepSeries> series, VectorMatching matching, Map<Labels, Integer> ordinals) {
    int[] result = new int[series.size()];
    Set<String> names = new HashSet<>(matching.labels());
    for (int i = 0; i < result.length; i++) {
      Labels labels = series.get(i).labels;
      Labels signature = matching.on() ? labels.keep(names) : labels.withoutMetricName().drop(names);
      result[i] = ordinals.computeIfAbsent(signature, k -> ordinals.size());
    }
    return result;
  }

  private Value setOperation(BinaryExpr expr, Value.Vector lhs, Value.Vector rhs) {
    Map<Labels, Integer> ordinals = new HashMap<>();
    int[] lhsSigs = signatures(lhs.series(), expr.matching(), ordinals);
    int[] rhsSigs = signatures(rhs.series(), expr.matching(), ordinals);
    boolean[] seen = new boolean[ordinals.size()];
    List<StepSeries> left = lhs.series();
    List<StepSeries> right = rhs.series();
    StepSeries[] leftOut = new StepSeries[left.size()];
    StepSeries[] rightOut = new StepSeries[right.size()];
    for (int step = 0; step < steps; step++) {
      Arrays.fill(seen, false);
      switch (expr.op()) {
        case AND:
        case UNLESS:
          for (int j = 0; j < right.size(); j++) {
            if (right.get(j).has(step)) {
              seen[rhsSigs[j]] = true;
            }
          }
          for (int i = 0; i < left.size(); i++) {
            StepSeries s = left.get(i);
            if (s.has(step) && seen[lhsSigs[i]] == (expr.op() == BinaryOp.AND)) {
              leftOut[i] = put(leftOut[i], s, step);
            }
          }
          break;
        default: // OR
          for (int i = 0; i < left.size(); i++) {
            StepSeries s = left.get(i);
            if (s.has(step)) {
              seen[lhsSigs[i]] = true;
              leftOut[i] = put(leftOut[i], s, step);
            }
          }
          for (int j = 0; j < right.size(); j++) {
            StepSeries s = right.get(j);
            if (s.has(step) && !seen[rhsSigs[j]]) {
              rightOut[j] = put(rightOut[j], s, step);
            }
          }
      }
    }
    VectorBuilder out = new VectorBuilder(steps);
    for (StepSeries s : leftOut) {
      if (s != null) {
        out.addAll(s);
      }
    }
    for (StepSeries s : rightOut) {
      if (s != null) {
        out.addAll(s);
      }
    }
    return out.build();
  }

  private StepSeries put(StepSeries target, StepSeries source, int step) {
    StepSeries result = target == null ? new StepSeries(source.labels, steps) : target;
    result.set(step, source.get(step));
    return result;
  }

  private Value vectorVector(BinaryExpr expr, Value.Vector lhsValue, Value.Vector rhsValue) {
    VectorMatching matching = expr.matching();
    BinaryOp op = expr.op();
    boolean oneToMany = matching.cardinality() == VectorMatching.Cardinality.ONE_TO_MANY;
    // the "one" side is always called right below; one-to-many swaps sides and swaps back for values
    List<StepSeries> left = oneToMany ? rhsValue.series() : lhsValue.series();
    List<StepSeries> right = oneToMany ? lhsValue.series() : rhsValue.series();
    Map<Labels, Integer> ordinals = new HashMap<>();
    int[] leftSigs = signatures(left, matching, ordinals);
    int[] rightSigs = signatures(right, matching, ordinals);
    int[] rightBySig = new int[ordinals.size()];
    boolean[] matched = new boolean[ordinals.size()];
    Map<Integer, Set<Labels>> inserted = new HashMap<>();
    Map<Long, Labels> resultLabels = new HashMap<>();
    Map<Labels, StepSeries> output = new java.util.LinkedHashMap<>();
    for (int step = 0; step < steps; step++) {
      Arrays.fill(rightBySig, -1);
      Arrays.fill(matched, false);
      inserted.clear();
      for (int j = 0; j < right.size(); j++) {
        if (!right.get(j).has(step)) {
          continue;
        }
        int sig = rightSigs[j];
        if (rightBySig[sig] >= 0) {
          StepSeries duplicate = right.get(rightBySig[sig]);
          StepSeries current = right.get(j);
          throw PromQlException.execution("found duplicate series for the match group "
              + matchLabels(current.labels, matching) + " on the " + (oneToMany ? "left" : "right")
              + " hand-side of the operation: [" + duplicate.labels + ", " + current.labels + "]"
              + ";many-to-many matching not allowed: matching labels must be unique on one side");
        }
        rightBySig[sig] = j;
      }
      for (int i = 0; i < left.size(); i++) {
        StepSeries ls = left.get(i);
        if (!ls.has(step)) {
          continue;
        }
        int sig = leftSigs[i];
        int j = rightBySig[sig];
        if (j < 0) {
          continue;
        }
        StepSeries rs = right.get(j);
        double fl = oneToMany ? rs.get(step) : ls.get(step);
        double fr = oneToMany ? ls.get(step) : rs.get(step);
        double value;
        boolean keep = true;
        if (op.isComparison()) {
          keep = compare(op, fl, fr);
          value = expr.returnBool() ? (keep ? 1 : 0) : fl;
        } else {
          value = scalarOp(op, fl, fr);
        }
        long pair = ((long) i << 32) | j;
        Labels labels = resultLabels.computeIfAbsent(pair, p -> resultLabels(ls.labels, rs.labels, op, matching,
            expr.returnBool()));
        if (matching.cardinality() == VectorMatching.Cardinality.ONE_TO_ONE) {
          if (matched[sig]) {
            throw PromQlException.execution(
                "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)");
          }
          matched[sig] = true;
        } else if (!inserted.computeIfAbsent(sig, k -> new HashSet<>()).add(labels)) {
          throw PromQlException.execution("multiple matches for labels: grouping labels must ensure unique matches");
        }
        if (!keep && !expr.returnBool()) {
          continue;
        }
        StepSeries target = output.computeIfAbsent(labels, l -> new StepSeries(l, steps));
        if (target.has(step)) {
          throw PromQlException.execution(VectorBuilder.DUPLICATE);
        }
        target.set(step, value);
      }
    }
    return new Value.Vector(new ArrayList<>(output.values()));
  }

  /** The labels a match group is reported with in errors. */
  private static Labels matchLabels(Labels labels, VectorMatching matching) {
    Set<String> names = new HashSet<>(matching.labels());
    return matching.on() ? labels.keep(names) : labels.withoutMetricName().drop(names);
  }

  private static Labels resultLabels(Labels lhs, Labels rhs, BinaryOp op, VectorMatching matching, boolean returnBool) {
    Labels.Builder builder = lhs.toBuilder();
    if (changesSchema(op) || returnBool) {
      builder.remove(Labels.METRIC_NAME);
    }
    if (matching.cardinality() == VectorMatching.Cardinality.ONE_TO_ONE) {
      if (matching.on()) {
        builder.keepOnly(new HashSet<>(matching.labels()));
      } else {
        for (String label : matching.labels()) {
          builder.remove(label);
        }
      }
    }
    for (String label : matching.include()) {
      builder.set(label, rhs.get(label));
    }
    return builder.build();
  }
}
