// The status page: what /api/v1/status/chronix reports (the figures of /metrics and the last
// logged problems), with ingest rates from the difference of two readings.
import { get } from './api.js';

const STORAGE = [
  ['chronix_buffered_points', 'buffered points'],
  ['chronix_buffered_series', 'buffered series'],
  ['chronix_buffer_memory_bytes', 'buffer memory (bytes)'],
  ['chronix_wal_bytes', 'write-ahead log (bytes)'],
  ['chronix_wal_segments', 'write-ahead log segments'],
  ['chronix_wal_failed', 'write-ahead log failed'],
  ['chronix_records', 'records'],
  ['chronix_stored_points', 'stored points'],
  ['chronix_data_dir_bytes', 'data directory (bytes)'],
  ['chronix_disk_bytes_per_point', 'bytes per point on disk'],
  ['chronix_compaction_runs_total', 'compaction runs'],
  ['chronix_compaction_records_read_total', 'records merged by compaction'],
  ['chronix_compaction_records_written_total', 'records written by compaction'],
  ['chronix_logged_problems_total', 'warnings and errors logged'],
  ['chronix_jvm_heap_used_bytes', 'Java heap in use (bytes)'],
];

export class StatusPage {
  constructor() {
    this.previous = null;
    this.timer = null;
  }

  start() {
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 5000);
  }

  stop() {
    clearInterval(this.timer);
  }

  async refresh() {
    const error = document.getElementById('status-error');
    try {
      const status = await get('../api/v1/status/chronix');
      error.textContent = '';
      this.render(status);
      this.previous = status;
    } catch (e) {
      error.textContent = e.message;
    }
  }

  render(status) {
    const ingest = status.metrics.filter((m) => m.name === 'chronix_ingested_points_total');
    const rates = document.getElementById('ingest-rates');
    rows(rates, ['protocol', 'points since start', 'points/s'], ingest.map((m) => {
      const before = this.previous && this.previous.metrics.find((p) => p.name === m.name
        && p.labels.protocol === m.labels.protocol);
      const seconds = before ? (status.time - this.previous.time) / 1000 : 0;
      const rate = before && seconds > 0 ? ((m.value - before.value) / seconds).toFixed(1) : '…';
      return [m.labels.protocol, format(m.value), rate];
    }));
    const byName = new Map(status.metrics.map((m) => [m.name, m.value]));
    rows(document.getElementById('storage-figures'), ['figure', 'value'],
      STORAGE.filter(([name]) => byName.has(name)).map(([name, title]) => [title, format(byName.get(name))]));
    rows(document.getElementById('problems'), ['time', 'level', 'where', 'message'],
      status.problems.map((p) => [p.time, p.level, p.logger, p.message]));
  }
}

function format(value) {
  return Number.isInteger(value) ? value.toLocaleString('en') : value.toFixed(3);
}

function rows(table, titles, data) {
  table.innerHTML = '';
  const head = table.createTHead().insertRow();
  for (const title of titles) {
    const th = document.createElement('th');
    th.textContent = title;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const values of data) {
    const row = body.insertRow();
    for (const value of values) {
      const cell = row.insertCell();
      cell.textContent = String(value);
      if (typeof value === 'number') {
        cell.className = 'number';
      }
    }
  }
}
