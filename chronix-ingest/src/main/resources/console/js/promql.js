// PromQL through the Prometheus HTTP API (/api/v1/query_range), as Grafana asks it.
import { get } from './api.js';

export function label(metric) {
  const name = metric.__name__ || '';
  const labels = Object.entries(metric).filter(([key]) => key !== '__name__')
    .map(([key, value]) => key + '="' + value + '"');
  return name + (labels.length || !name ? '{' + labels.join(', ') + '}' : '');
}

/** One point per step, the step chosen so that the range fits the plot's width. */
export async function run(expr, range, width) {
  const stepSeconds = Math.max(1, Math.ceil((range.end - range.start) / width / 1000));
  const answer = await get('../api/v1/query_range', {
    query: expr,
    start: (range.start / 1000).toFixed(3),
    end: (range.end / 1000).toFixed(3),
    step: stepSeconds,
  });
  const lines = answer.data.result.map((series) => ({
    label: label(series.metric),
    timestamps: series.values.map(([t]) => Math.round(t * 1000)),
    values: series.values.map(([, v]) => parseFloat(v)),
  }));
  return { lines, stepSeconds };
}
