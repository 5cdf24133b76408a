// The series browser: metric names with their series counts, attribute facets to narrow them
// down, and the matching series a page at a time. Everything comes from /api/v1/series for the
// chosen time range.
import { get } from './api.js';

const PAGE = 20;

export class SeriesBrowser {
  constructor(elements, onPick) {
    this.el = elements;
    this.onPick = onPick;
    this.all = [];
    this.metric = null;
    this.filters = new Map();
    this.page = 0;
    elements.filter.addEventListener('input', () => this.renderMetrics());
    elements.prev.addEventListener('click', () => this.turn(-1));
    elements.next.addEventListener('click', () => this.turn(1));
    elements.plot.addEventListener('click', () => this.onPick(this.metric, this.filters, null));
  }

  async load(range) {
    this.el.error.textContent = '';
    try {
      const answer = await get('../api/v1/series', {
        'match[]': '{__name__=~".+"}',
        start: (range.start / 1000).toFixed(3),
        end: (range.end / 1000).toFixed(3),
      });
      this.all = answer.data;
    } catch (e) {
      this.all = [];
      this.el.error.textContent = e.message;
    }
    if (this.metric && !this.all.some((s) => s.__name__ === this.metric)) {
      this.metric = null;
      this.filters.clear();
    }
    this.page = 0;
    this.render();
  }

  render() {
    this.renderMetrics();
    this.renderFacets();
    this.renderSeries();
  }

  renderMetrics() {
    const counts = new Map();
    for (const series of this.all) {
      counts.set(series.__name__, (counts.get(series.__name__) || 0) + 1);
    }
    const filter = this.el.filter.value.trim().toLowerCase();
    this.el.metrics.innerHTML = '';
    for (const name of Array.from(counts.keys()).sort()) {
      if (filter && !name.toLowerCase().includes(filter)) {
        continue;
      }
      const li = document.createElement('li');
      li.dataset.metric = name;
      li.className = name === this.metric ? 'chosen' : '';
      li.innerHTML = '<span class="name"></span><span class="count"></span>';
      li.querySelector('.name').textContent = name;
      li.querySelector('.count').textContent = counts.get(name);
      li.addEventListener('click', () => {
        this.metric = name === this.metric ? null : name;
        this.filters.clear();
        this.page = 0;
        this.render();
      });
      this.el.metrics.appendChild(li);
    }
  }

  /** The series of the chosen metric that pass every chosen facet value. */
  matching() {
    return this.all.filter((series) => (!this.metric || series.__name__ === this.metric)
      && Array.from(this.filters.entries()).every(([key, value]) => series[key] === value));
  }

  renderFacets() {
    this.el.facets.innerHTML = '';
    if (!this.metric) {
      return;
    }
    const values = new Map();
    for (const series of this.matching()) {
      for (const [key, value] of Object.entries(series)) {
        if (key === '__name__') {
          continue;
        }
        if (!values.has(key)) {
          values.set(key, new Map());
        }
        values.get(key).set(value, (values.get(key).get(value) || 0) + 1);
      }
    }
    const title = document.createElement('h3');
    title.textContent = 'Attributes';
    this.el.facets.appendChild(title);
    for (const key of Array.from(values.keys()).sort()) {
      const facet = document.createElement('div');
      facet.className = 'facet';
      facet.dataset.attribute = key;
      const heading = document.createElement('h4');
      heading.textContent = key;
      facet.appendChild(heading);
      for (const [value, count] of Array.from(values.get(key).entries()).sort()) {
        const chip = document.createElement('span');
        chip.dataset.value = value;
        chip.textContent = value + ' (' + count + ')';
        chip.className = this.filters.get(key) === value ? 'chosen' : '';
        chip.addEventListener('click', () => {
          if (this.filters.get(key) === value) {
            this.filters.delete(key);
          } else {
            this.filters.set(key, value);
          }
          this.page = 0;
          this.render();
        });
        facet.appendChild(chip);
      }
      this.el.facets.appendChild(facet);
    }
  }

  renderSeries() {
    const matching = this.metric ? this.matching() : [];
    const pages = Math.max(1, Math.ceil(matching.length / PAGE));
    this.page = Math.min(this.page, pages - 1);
    this.el.count.textContent = this.metric ? '(' + matching.length + ')' : '';
    this.el.series.innerHTML = '';
    for (const series of matching.slice(this.page * PAGE, (this.page + 1) * PAGE)) {
      const li = document.createElement('li');
      li.textContent = Object.entries(series).filter(([key]) => key !== '__name__')
        .map(([key, value]) => key + '=' + value).join(', ') || series.__name__;
      li.addEventListener('click', () => this.onPick(this.metric, this.filters, series));
      this.el.series.appendChild(li);
    }
    this.el.pageLabel.textContent = this.metric ? (this.page + 1) + ' / ' + pages : '';
    this.el.plot.disabled = !this.metric;
  }

  turn(delta) {
    this.page = Math.max(0, this.page + delta);
    this.renderSeries();
  }
}
