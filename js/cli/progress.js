// js/cli/progress.js: a progress line on stderr for long builds (as tools/cli/progress.h): only when
// stderr is a terminal and --quiet was not given; redrawn at most 10 times a second, erased when done.
export class Progress {
  #enabled;
  #total;
  #start = Date.now();
  #last = this.#start;
  #drawn = false;

  constructor(wanted, totalBytes) {
    this.#enabled = wanted && process.stderr.isTTY === true;
    this.#total = totalBytes;
  }

  update(keys, bytes) {
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    const seconds = (now - this.#start) / 1000;
    let line = `\r  ${(keys / 1e6).toFixed(1)} M keys   ${(seconds > 0 ? keys / seconds / 1e6 : 0).toFixed(1)} M keys/s`;
    if (this.#total > 0) {
      const done = Math.min(1, bytes / this.#total);
      const width = 30;
      const filled = Math.floor(done * width);
      const bar = '='.repeat(filled) + (filled < width ? '>' : '') + ' '.repeat(Math.max(0, width - filled - 1));
      line += `   [${bar}] ${String(Math.floor(done * 100)).padStart(3)}%`;
    }
    process.stderr.write(line);
    this.#drawn = true;
  }

  finish() {
    if (!this.#drawn) return;
    process.stderr.write('\r\x1b[K');
    this.#drawn = false;
  }
}
