// The console's wiring: the time range, the series browser, both query languages, the chart and
// the status page. The page address (#...) keeps the query and range, so a view can be shared.
import { showUser } from './api.js';
import { TimeRange } from './timerange.js';
import { SeriesBrowser } from './browser.js';
import * as chronix from './chronix.js';
import * as promql from './promql.js';
import { draw, plotWidth } from './plot.js';
import { StatusPage } from './status.js';

const $ = (id) => document.getElementById(id);
const chronixFields = { q: $('chronix-q'), cf: $('chronix-cf'), cj: $('chronix-cj'), fq: $('chronix-fq') };
let language = 'chronix';

const range = new TimeRange($('range'), $('from'), $('to'), () => {
  saveState();
  browser.load(safeRange());
});

const browser = new SeriesBrowser({
  filter: $('metric-filter'), metrics: $('metrics'), facets: $('facets'), series: $('series'),
  count: $('series-count'), prev: $('prev-page'), next: $('next-page'), pageLabel: $('page'),
  plot: $('plot-selection'), error: $('browser-error'),
}, pick);

const status = new StatusPage();

function safeRange() {
  try {
    return range.current();
  } catch (e) {
    $('browser-error').textContent = e.message;
    return range.relative('1h');
  }
}

/** A series (or all series of a metric passing the facets) from the browser into the active language. */
function pick(metric, filters, series) {
  const labels = series ? Object.entries(series).filter(([key]) => key !== '__name__')
    : Array.from(filters.entries());
  const quote = (v) => '"' + v.replace(/(["\\])/g, '\\$1') + '"';
  if (language === 'promql') {
    // a name that is not a PromQL identifier (P4's \Load\avg) goes into the braces
    const plain = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(metric);
    const matchers = (plain ? [] : [['__name__', metric]]).concat(labels).map(([k, v]) => k + '=' + quote(v));
    $('promql-expr').value = (plain ? metric : '') + '{' + matchers.join(', ') + '}';
  } else {
    const terms = [['name', metric], ...labels].map(([k, v]) => k + ':' + quote(v));
    chronixFields.q.value = terms.join(' AND ');
    chronixFields.cj.value = series ? '' : '*';
  }
  runQuery();
}

function setLanguage(lang) {
  language = lang;
  document.querySelectorAll('.tabs button').forEach((b) => b.classList.toggle('active', b.dataset.lang === lang));
  $('chronix-form').hidden = lang !== 'chronix';
  $('promql-form').hidden = lang !== 'promql';
}

async function runQuery() {
  saveState();
  const chart = $('chart');
  const errorBox = $(language + '-error');
  errorBox.textContent = '';
  chart.dataset.state = 'running';
  try {
    const current = range.current();
    const width = plotWidth(chart);
    if (language === 'promql') {
      const result = await promql.run($('promql-expr').value, current, width);
      const drawn = draw(chart, result.lines, [], [], result.stepSeconds * 1000);
      $('results').innerHTML = '';
      $('chart-info').textContent = drawn.points + ' points of ' + result.lines.length + ' series, step '
        + result.stepSeconds + ' s';
    } else {
      const form = Object.fromEntries(Object.entries(chronixFields).map(([k, input]) => [k, input.value]));
      const result = await chronix.run(form, current, width);
      const drawn = draw(chart, result.lines, result.markers, result.trends, result.intervalMs);
      chronix.table($('results'), result.functionDocs);
      $('chart-info').textContent = drawn.points + ' points of ' + result.lines.length + ' series (one per '
        + result.intervalMs + ' ms at most)' + (drawn.markers ? ', ' + drawn.markers + ' outliers marked' : '');
    }
    chart.dataset.state = 'drawn';
  } catch (e) {
    errorBox.textContent = e.message;
    chart.dataset.state = 'failed';
  }
}

function saveState() {
  const state = { lang: language, ...safeRangeState() };
  if (language === 'promql') {
    state.expr = $('promql-expr').value;
  } else {
    for (const [key, input] of Object.entries(chronixFields)) {
      if (input.value) {
        state[key] = input.value;
      }
    }
  }
  history.replaceState(null, '', '#' + new URLSearchParams(state).toString());
}

function safeRangeState() {
  try {
    return range.state();
  } catch (e) {
    return {};
  }
}

function restoreState() {
  const state = Object.fromEntries(new URLSearchParams(location.hash.substring(1)));
  range.restore(state);
  setLanguage(state.lang === 'promql' ? 'promql' : 'chronix');
  $('promql-expr').value = state.expr || '';
  for (const [key, input] of Object.entries(chronixFields)) {
    input.value = state[key] || '';
  }
  return state;
}

function showPage(page) {
  document.querySelectorAll('header nav a').forEach((a) => a.classList.toggle('active', a.dataset.page === page));
  $('explore').hidden = page !== 'explore';
  $('status').hidden = page !== 'status';
  if (page === 'status') {
    status.start();
  } else {
    status.stop();
  }
}

document.querySelectorAll('.tabs button').forEach((b) => b.addEventListener('click', () => setLanguage(b.dataset.lang)));
document.querySelectorAll('header nav a').forEach((a) => a.addEventListener('click', (event) => {
  event.preventDefault();
  showPage(a.dataset.page);
}));
$('chronix-form').addEventListener('submit', (event) => {
  event.preventDefault();
  runQuery();
});
$('promql-form').addEventListener('submit', (event) => {
  event.preventDefault();
  runQuery();
});

showUser();
const initial = restoreState();
browser.load(safeRange());
if (initial.q || initial.expr) {
  runQuery();
}
document.body.dataset.ready = 'true';
