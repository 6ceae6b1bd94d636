// js/files.node.js: CuckooFilter.load(path) and filter.save(path) for Node, moving a filter's bytes
// between its file and wasm memory in pieces (js/stream.js): reads land in the new table and writes come
// from the table itself, so memory holds the table once, plus a bounded piece. Only Node's entries
// (js/node.js, bundled into dist/cuckoo.cjs) load this file: browser bundles never see node:fs.
import { closeSync, fchmodSync, fstatSync, fsyncSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eachPiece, Loader } from './stream.js';

function writeAll(fd, view) {
  for (let at = 0; at < view.length;) at += writeSync(fd, view, at, view.length - at);
}

// Writes the filter at address to path atomically: a temporary file in the same directory, flushed to
// disk, then renamed over path, so that readers and a crash see the old file or the new one, never part
// of one. An existing file's permissions are kept. On failure the temporary file is removed and path is
// untouched.
export function saveFile(address, path) {
  const file = String(path);
  const existing = statSync(file, { throwIfNoEntry: false });
  const temp = join(dirname(file), `.${basename(file).slice(0, 200)}.tmp-${randomBytes(6).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o600);
  let open = true;
  try {
    eachPiece(address, (view) => writeAll(fd, view));
    fchmodSync(fd, existing?.isFile() ? existing.mode & 0o7777 : 0o666 & ~process.umask());
    fsyncSync(fd);
    open = false;
    closeSync(fd);
    renameSync(temp, file);
  } catch (error) {
    if (open) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // already renamed, or never written
    }
    throw error;
  }
  try {
    const dir = openSync(dirname(file), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {
    // best effort: some file systems refuse fsync on a directory
  }
}

// A NativeFilter handle for the filter in the file at path, read straight into its table. The file's size
// is known, so a header that does not match it is refused before any table is allocated.
export function loadFile(path) {
  const fd = openSync(String(path), 'r');
  let loader = null;
  try {
    const size = fstatSync(fd).size;
    loader = new Loader(size);
    for (;;) {
      const room = loader.room();
      if (room.length === 0) break;
      const n = readSync(fd, room, 0, room.length, null);
      if (n === 0) break; // the file ended early: finish() says it is truncated
      loader.commit(n);
    }
    // A file that grew past its stat'ed size: the loader refuses what its header does not announce.
    if (readSync(fd, new Uint8Array(1), 0, 1, null) !== 0) loader.add(new Uint8Array(1));
    return loader.finish();
  } finally {
    loader?.dispose();
    closeSync(fd);
  }
}
