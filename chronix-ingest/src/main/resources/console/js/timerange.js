// The time range every panel uses: relative ("last hour") or absolute (from/to, UTC).

const UNITS = { m: 60e3, h: 3600e3, d: 86400e3 };

export class TimeRange {
  constructor(select, from, to, onChange) {
    this.select = select;
    this.from = from;
    this.to = to;
    select.addEventListener('change', () => {
      if (select.value === 'custom' && !from.value) {
        const { start, end } = this.relative('1h');
        from.value = toInput(start);
        to.value = toInput(end);
      }
      onChange();
    });
    for (const input of [from, to]) {
      input.addEventListener('change', () => {
        select.value = 'custom';
        onChange();
      });
    }
  }

  relative(span) {
    const end = Date.now();
    const amount = parseInt(span, 10);
    return { start: end - amount * UNITS[span.slice(-1)], end };
  }

  /** {start, end} in epoch milliseconds. */
  current() {
    if (this.select.value !== 'custom') {
      return this.relative(this.select.value);
    }
    const start = fromInput(this.from.value);
    const end = fromInput(this.to.value);
    if (isNaN(start) || isNaN(end) || end < start) {
      throw new Error('the absolute range needs a from before its to');
    }
    return { start, end };
  }

  /** For the page address: "1h" or "custom" with from and to in ms. */
  state() {
    if (this.select.value !== 'custom') {
      return { range: this.select.value };
    }
    const { start, end } = this.current();
    return { range: 'custom', from: String(start), to: String(end) };
  }

  restore(state) {
    if (state.range === 'custom' && state.from && state.to) {
      this.select.value = 'custom';
      this.from.value = toInput(Number(state.from));
      this.to.value = toInput(Number(state.to));
    } else if (state.range) {
      this.select.value = state.range;
    }
  }
}

function toInput(millis) {
  return new Date(millis).toISOString().substring(0, 19);
}

function fromInput(value) {
  return Date.parse(value + 'Z');
}
