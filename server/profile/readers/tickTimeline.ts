// How long each V8 tick lasts, shared by the raw log and the preprocessed readers: a tick lasts
// until the next one (as DevTools does for cpuprofile samples), a tick stamped earlier than the
// previous one lasts 0 ms and is counted for a warning, and the last tick lasts the mean interval.

export class TickTimeline {
  private count = 0;
  private first = NaN;
  private last = NaN;
  private earlier = 0;

  /** Records a tick at `time` (µs); returns how long the previous tick lasted, in ms (0 for the first). */
  next(time: number): number {
    let ms = 0;
    if (this.count === 0) {
      this.first = time;
      this.last = time;
    } else if (time < this.last) {
      this.earlier++;
    } else {
      ms = (time - this.last) / 1000;
      this.last = time;
    }
    this.count++;
    return ms;
  }

  /** How long the last tick lasts, in ms: the mean interval between ticks. */
  lastTickMs(): number {
    return this.count > 1 ? (this.last - this.first) / (this.count - 1) / 1000 : 0;
  }

  durationMs(): number {
    return this.count > 0 ? (this.last - this.first) / 1000 + this.lastTickMs() : 0;
  }

  /** One line for the profile's warnings, or null. */
  warning(): string | null {
    return this.earlier > 0 ? `${this.earlier} tick(s) earlier than the previous one were counted as 0 ms` : null;
  }
}
