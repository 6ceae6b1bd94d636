// js/cli/lines.js: keys from text, one per line, read in large blocks. The same rules as the native tool
// (tools/cli/lines.h), so both build identical filters:
//   - a line ends at '\n'; a trailing '\r' is removed;
//   - empty lines (after removing the '\r') are skipped;
//   - the last line needs no '\n';
//   - every other byte is part of the key, unchanged (no trimming, no UTF-8 decoding).
// A key is a string when its block is all ASCII (the string's UTF-8 bytes are the line's bytes, and
// strings are the fastest keys for addMany), else a Uint8Array view of its bytes.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import * as buffer from 'node:buffer';
import { systemMessage } from './errno.js';

const kBlock = 4 << 20;
const isAscii = typeof buffer.isAscii === 'function' ? (b) => buffer.isAscii(b) : (b) => !/[\x80-\xff]/.test(b.latin1Slice(0, b.length));

// The keys of the complete lines of bytes (a Buffer); atEnd also takes a last line without '\n'.
// Returns { keys, used }: used is the start of an incomplete last line when !atEnd.
export function splitLines(bytes, atEnd) {
  const used = atEnd ? bytes.length : bytes.lastIndexOf(10) + 1;
  const keys = [];
  if (used === 0) return { keys, used };
  const region = bytes.subarray(0, used);
  if (isAscii(region)) {
    const lines = region.latin1Slice(0, region.length).split('\n');
    for (let line of lines) {
      if (line.length !== 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      if (line.length !== 0) keys.push(line);
    }
    return { keys, used };
  }
  let start = 0;
  while (start < used) {
    let end = region.indexOf(10, start);
    const next = end < 0 ? used : end + 1;
    if (end < 0) end = used;
    if (end > start && region[end - 1] === 13) end--;
    if (end > start) keys.push(region.subarray(start, end));
    start = next;
  }
  return { keys, used };
}

// The number of keys splitLines(bytes, true) would give, without making them (a byte loop: sizing a filter
// from its input counts the keys before inserting them). A line's key is the line less one trailing
// '\r', so a line counts unless it is empty or a lone '\r'.
export function countKeys(bytes) {
  let count = 0;
  let length = 0;
  let last = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 10) {
      if (length > 1 || (length === 1 && last !== 13)) count++;
      length = 0;
    } else {
      length++;
      last = c;
    }
  }
  if (length > 1 || (length === 1 && last !== 13)) count++;
  return count;
}

// Sleeps ms milliseconds synchronously (a non-blocking standard input may answer EAGAIN).
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Reads fd up to length bytes into buf at offset; 0 at the end.
export function readSome(fd, buf, offset, length) {
  for (;;) {
    try {
      return readSync(fd, buf, offset, length, null);
    } catch (error) {
      if (error.code === 'EAGAIN') pause(1);
      else if (error.code === 'EOF') return 0;
      else throw error;
    }
  }
}

function openInput(path) {
  if (path === '-') return { fd: 0, name: 'standard input', close() {} };
  const fd = openSync(path, 'r');
  return { fd, name: path, close: () => closeSync(fd) };
}

// Total bytes of the files (0 if any is not a regular file): the progress bar's 100%.
export function totalBytes(paths) {
  let total = 0;
  for (const path of paths) {
    try {
      const st = path === '-' ? fstatSync(0) : statSync(path);
      if (!st.isFile()) return 0;
      total += st.size;
    } catch {
      return 0;
    }
  }
  return total;
}

// Reads the files in blocks of 4 MiB and calls onBatch(keys, bytesReadSoFar) for the keys of each block,
// in order. The keys' bytes stay valid until onBatch returns. Throws an Error naming the file.
export function readKeys(paths, onBatch) {
  let bytesRead = 0;
  for (const path of paths) {
    let input;
    try {
      input = openInput(path);
    } catch (error) {
      throw new Error(`${path}: cannot open: ${systemMessage(error)}`);
    }
    try {
      let buf = Buffer.allocUnsafe(kBlock);
      let carried = 0;
      for (;;) {
        if (buf.length - carried < kBlock / 2) {
          const bigger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(bigger, 0, 0, carried);
          buf = bigger;
        }
        let got;
        try {
          got = readSome(input.fd, buf, carried, buf.length - carried);
        } catch (error) {
          throw new Error(`${input.name}: cannot read: ${systemMessage(error)}`);
        }
        bytesRead += got;
        const atEnd = got === 0;
        const n = carried + got;
        const { keys, used } = splitLines(buf.subarray(0, n), atEnd);
        if (keys.length !== 0) onBatch(keys, bytesRead);
        if (atEnd) break;
        carried = n - used;
        buf.copy(buf, 0, used, n);
      }
    } finally {
      input.close();
    }
  }
}
