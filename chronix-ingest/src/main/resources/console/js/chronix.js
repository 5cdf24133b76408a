// The Chronix query language: q, cf, cj and fq as /solr/<collection>/query takes them (docs/query.md).
import { get } from './api.js';

const QUERY = '../solr/chronix/query';
/** Fields of a series document that are not its attributes. */
const NOT_ATTRIBUTES = new Set(['start', 'end', 'count', 'points', 'functions', 'dataAsJson', 'data', 'type']);

/** q with the time range added, unless it names one itself. */
export function withRange(q, range) {
  const base = q.trim() || '*:*';
  if (/\b(start|end):/.test(base)) {
    return base;
  }
  return '(' + base + ') AND start:' + range.start + ' AND end:' + range.end;
}

/** The user's functions, then one point per interval (ms) aggregated as given, in every type block. */
export function withDownsample(cf, intervalMs, aggregation) {
  const step = 'downsample:' + intervalMs + ',ms,' + aggregation;
  if (!cf.trim()) {
    return 'metric{' + step + '};long{' + step + '};array{' + step + '}';
  }
  return cf.replace(/\}/g, ';' + step + '}');
}

/** An array series drawn as one line per element, labelled name[k]; a point without element k leaves a gap. */
export function elementLines(line) {
  // a reduce, not Math.max(...): spreading one argument a point fails for long series
  const width = line.values.reduce((widest, array) => Math.max(widest, Array.isArray(array) ? array.length : 0), 0);
  const lines = [];
  for (let k = 0; k < width; k++) {
    const timestamps = [];
    const values = [];
    line.values.forEach((array, i) => {
      if (Array.isArray(array) && array.length > k) {
        timestamps.push(line.timestamps[i]);
        values.push(array[k]);
      }
    });
    lines.push({ ...line, label: line.label + '[' + k + ']', timestamps, values });
  }
  return lines;
}

export function label(doc) {
  const name = Array.isArray(doc.name) ? doc.name.join('|') : doc.name;
  const attributes = Object.entries(doc)
    .filter(([key]) => key !== 'name' && !key.startsWith('_') && !NOT_ATTRIBUTES.has(key))
    .map(([key, value]) => key + '=' + (Array.isArray(value) ? value.join('|') : value));
  return (name || '(joined)') + (attributes.length ? ' {' + attributes.join(', ') + '}' : '');
}

function params(form, range, extra) {
  const p = new URLSearchParams();
  p.set('q', withRange(form.q, range));
  if (form.cj.trim()) {
    p.set('cj', form.cj.trim());
  }
  if (form.fq.trim()) {
    p.set('fq', form.fq.trim());
  }
  p.set('wt', 'json');
  for (const [key, value] of Object.entries(extra)) {
    p.set(key, value);
  }
  return p;
}

/**
 * Runs the query: the functions as asked (for the table and the analyses), and the points
 * downsampled on the server to the plot's width. Outliers are marked where an interval's maximum
 * lies above (or its minimum below) the bounds the outlier analysis found.
 */
export async function run(form, range, width) {
  const intervalMs = niceInterval(Math.max(1, Math.floor((range.end - range.start) / width)));
  const hasFunctions = form.cf.trim() !== '';
  const analysis = hasFunctions
    ? get(QUERY, params(form, range, { cf: form.cf.trim(), rows: 1000 }))
    : Promise.resolve(null);
  const points = get(QUERY, params(form, range,
    { cf: withDownsample(form.cf, intervalMs, 'avg'), fl: '*,points', rows: 1000 }));
  const [functions, plotted] = await Promise.all([analysis, points]);

  const docs = plotted.response.docs;
  const functionDocs = functions ? functions.response.docs : [];
  const byLabel = new Map(functionDocs.map((doc) => [label(doc), doc.functions || []]));
  const lines = docs.flatMap((doc) => {
    const results = byLabel.get(label(doc)) || [];
    const line = {
      label: label(doc),
      timestamps: doc.points ? doc.points.timestamps : [],
      values: doc.points ? doc.points.values : [],
      highlight: results.some((r) => (r.name === 'sax' || r.name === 'fastdtw') && r.matches),
    };
    const types = Array.isArray(doc.type) ? doc.type : [doc.type];
    return types.includes('array') && line.values.some(Array.isArray) ? elementLines(line) : [line];
  });

  const markers = [];
  const trends = [];
  const outlierBounds = new Map();
  for (const doc of functionDocs) {
    for (const result of doc.functions || []) {
      if (result.name === 'outlier' && result.upper !== undefined) {
        outlierBounds.set(label(doc), result);
      }
      if (result.name === 'trend' && result.origin !== undefined && isFinite(result.slope)) {
        trends.push({ label: 'trend of ' + label(doc), slope: result.slope, intercept: result.intercept,
          origin: result.origin });
      }
    }
  }
  if (outlierBounds.size > 0) {
    const [highs, lows] = await Promise.all(['max', 'min'].map((aggregation) => get(QUERY, params(form, range,
      { cf: withDownsample(form.cf, intervalMs, aggregation), fl: '*,points', rows: 1000 }))));
    for (const [i, doc] of highs.response.docs.entries()) {
      const bounds = outlierBounds.get(label(doc));
      const low = lows.response.docs[i];
      if (!bounds || !doc.points) {
        continue;
      }
      const marker = { label: 'outliers of ' + label(doc), timestamps: [], values: [] };
      doc.points.timestamps.forEach((t, j) => {
        const high = doc.points.values[j];
        const lowValue = low && low.points ? low.points.values[j] : high;
        if (high > bounds.upper) {
          marker.timestamps.push(t);
          marker.values.push(high);
        } else if (lowValue < bounds.lower) {
          marker.timestamps.push(t);
          marker.values.push(lowValue);
        }
      });
      markers.push(marker);
    }
  }
  return { lines, markers, trends, functionDocs, intervalMs };
}

/**
 * Whole minutes, 5 minutes or hours once the interval reaches them: the server answers such
 * downsamples from a rollup tier when one is set (docs/lifecycle.md).
 */
export function niceInterval(ms) {
  for (const unit of [3600e3, 300e3, 60e3]) {
    if (ms >= unit) {
      return Math.ceil(ms / unit) * unit;
    }
  }
  return ms;
}

/** Series documents with their function results, one row per series and function. */
export function table(element, functionDocs) {
  element.innerHTML = '';
  if (functionDocs.length === 0) {
    return;
  }
  const head = element.createTHead().insertRow();
  for (const title of ['series', 'function', 'value', 'details']) {
    const th = document.createElement('th');
    th.textContent = title;
    head.appendChild(th);
  }
  const body = element.createTBody();
  for (const doc of functionDocs) {
    for (const result of doc.functions || []) {
      const row = body.insertRow();
      row.insertCell().textContent = label(doc);
      row.insertCell().textContent = result.name + (result.arguments && result.arguments.length
        ? ':' + result.arguments.join(',') : '');
      const value = row.insertCell();
      if ('value' in result) {
        value.textContent = String(result.value);
        value.className = 'number';
      } else if ('matches' in result) {
        value.textContent = result.matches ? 'matches' : 'no match';
        value.className = result.matches ? 'match' : '';
      }
      const details = Object.entries(result)
        .filter(([key]) => !['name', 'arguments', 'value', 'matches'].includes(key))
        .map(([key, v]) => key + '=' + (typeof v === 'number' ? +v.toPrecision(6) : JSON.stringify(v)));
      row.insertCell().textContent = details.join(', ');
    }
  }
}
