// Line charts with uPlot (a WebJar served by the server): drag to zoom, double-click to zoom out.
// Lines are the series, markers the points an analysis flagged, dashed lines the fitted trends.

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22',
  '#7f7f7f', '#d62728'];

let chart = null;

/** Pixels across the plot: the server downsamples to about this many points per series. */
export function plotWidth(container) {
  return Math.max(200, container.clientWidth - 80);
}

/**
 * lines: [{label, timestamps (ms), values, highlight}]; markers: [{label, timestamps, values}];
 * trends: [{label, slope (per second), intercept, origin (ms)}].
 */
export function draw(container, lines, markers = [], trends = [], interval = '') {
  if (chart) {
    chart.destroy();
    chart = null;
  }
  container.innerHTML = '';
  const drawn = lines.reduce((sum, line) => sum + line.timestamps.length, 0);
  const marked = markers.reduce((sum, marker) => sum + marker.timestamps.length, 0);
  container.dataset.series = String(lines.length);
  container.dataset.points = String(drawn);
  container.dataset.markers = String(marked);
  container.dataset.trends = String(trends.length);
  container.dataset.interval = String(interval);
  if (drawn === 0) {
    container.textContent = 'no points in this range';
    return { points: 0, markers: 0 };
  }
  const xs = unionOfTimestamps([...lines, ...markers]);
  const index = new Map(xs.map((x, i) => [x, i]));
  const data = [xs.map((x) => x / 1000)];
  const series = [{}];
  lines.forEach((line, i) => {
    data.push(aligned(line, xs.length, index));
    series.push({
      label: line.label,
      stroke: COLORS[i % COLORS.length],
      width: line.highlight ? 3 : 1.25,
      spanGaps: true,
      points: { show: false },
    });
  });
  markers.forEach((marker) => {
    data.push(aligned(marker, xs.length, index));
    series.push({
      label: marker.label,
      stroke: '#d62728',
      fill: '#d62728',
      width: 0,
      paths: () => null,
      points: { show: true, size: 9, fill: '#d62728', stroke: '#7a1212' },
    });
  });
  trends.forEach((trend) => {
    data.push(xs.map((x) => trend.intercept + trend.slope * ((x - trend.origin) / 1000)));
    series.push({ label: trend.label, stroke: '#444', width: 1.5, dash: [6, 4], points: { show: false } });
  });
  chart = new uPlot({
    width: plotWidth(container),
    height: 360,
    series,
    scales: { x: { time: true } },
    cursor: { drag: { x: true, y: false } },
    legend: { live: true },
  }, data, container);
  return { points: drawn, markers: marked };
}

function unionOfTimestamps(all) {
  const set = new Set();
  for (const one of all) {
    for (const t of one.timestamps) {
      set.add(t);
    }
  }
  return Array.from(set).sort((a, b) => a - b);
}

function aligned(line, length, index) {
  const values = new Array(length).fill(null);
  for (let i = 0; i < line.timestamps.length; i++) {
    values[index.get(line.timestamps[i])] = line.values[i];
  }
  return values;
}
