// js/cli/files.js: whole-file reads, and writes that replace a file all at once (as tools/cli/atomic_file.h).
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { systemMessage } from './errno.js';
import { readSome } from './lines.js';

// The file's bytes ("-": standard input); an Error naming the file.
export function readWhole(file) {
  if (file !== '-') {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new Error(`${file}: cannot ${error.syscall === 'open' ? 'open' : 'read'}: ${systemMessage(error)}`);
    }
  }
  const parts = [];
  for (;;) {
    const buf = Buffer.allocUnsafe(1 << 20);
    const got = readSome(0, buf, 0, buf.length);
    if (got === 0) return Buffer.concat(parts);
    parts.push(buf.subarray(0, got));
  }
}

// Writes all of bytes to fd, retrying where a non-blocking pipe answers EAGAIN.
export function writeAll(fd, bytes) {
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

// Ends the process as a native program ends when it writes to a pipe that nobody reads any more: killed
// by SIGPIPE, silently, so that `cuckoo query ... | head` stops without an error. Node ignores SIGPIPE
// (a write fails with EPIPE instead); once a listener is added and removed again, the default action is
// back. Where there is no SIGPIPE, the exit status is the one a shell shows for it.
function dieOfBrokenPipe() {
  const ignore = () => {};
  try {
    process.on('SIGPIPE', ignore);
    process.off('SIGPIPE', ignore);
    process.kill(process.pid, 'SIGPIPE');
  } finally {
    process.exit(128 + 13);
  }
}

// Writes all of bytes to standard output; a reader that went away ends the process (dieOfBrokenPipe).
export function writeStdout(bytes) {
  try {
    writeAll(1, bytes);
  } catch (error) {
    if (error.code === 'EPIPE') dieOfBrokenPipe();
    throw error;
  }
}

const kTempStemBytes = 200;

function newFileMode() {
  return 0o666 & ~process.umask();
}

// The descriptor a path names, or -1: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N. Written
// through that descriptor, output lands where the shell sent it (appended after `>>`, followed by what
// the next command writes), where opening the path again would start a new file position, and replacing
// it would replace the file the descriptor is open on.
function descriptorNamed(file) {
  if (file === '/dev/stdout') return 1;
  if (file === '/dev/stderr') return 2;
  const m = /^\/(?:dev|proc\/self)\/fd\/(\d{1,8})$/.exec(file);
  return m ? Number(m[1]) : -1;
}

// A device, a pipe or a socket cannot be replaced, and need not be: it is written into.
function writeInto(file, bytes) {
  let fd;
  try {
    fd = openSync(file, constants.O_WRONLY);
  } catch (error) {
    throw new Error(`${file}: cannot open: ${systemMessage(error)}`);
  }
  try {
    writeAll(fd, bytes);
  } catch (error) {
    throw new Error(`${file}: cannot write: ${systemMessage(error)}`);
  } finally {
    closeSync(fd);
  }
}

// Replaces (or creates) file with bytes: a temporary file in the same directory, flushed to disk, then
// renamed over it, so readers and a crash see the old file or the new one, never a partial one. The new
// file keeps an existing file's permissions; an existing file the user may not write is refused. On
// failure the temporary file is removed, file is untouched, and the Error says why. (Unlike the native
// tool, which removes it on SIGINT/SIGTERM, a signal arriving during the synchronous write here may leave
// the hidden temporary file behind; the target is intact either way.) A symbolic link is replaced by the
// new file, never followed. A device, pipe or socket is written into, since there is no file to replace,
// and a path naming a descriptor (descriptorNamed) is written through it.
export function writeAtomically(file, bytes) {
  // Each step's failure is worded as the native tool words it.
  const failure = (what, error) => new Error(`${file}: ${what}: ${systemMessage(error)}`);
  const named = descriptorNamed(file);
  if (named === 1) {
    writeStdout(bytes); // a reader that went away ends the process by SIGPIPE, as natively
    return;
  }
  if (named >= 0) {
    try {
      writeAll(named, bytes);
    } catch (error) {
      throw failure('cannot write', error);
    }
    return;
  }
  const followed = statSync(file, { throwIfNoEntry: false });
  if (followed !== undefined && !followed.isFile() && !followed.isDirectory()) {
    writeInto(file, bytes);
    return;
  }
  // A symbolic link is replaced, never followed: following it would let whoever made the link choose the
  // file overwritten (another user's, through a link in a shared directory), where a rename over the link
  // leaves the file it names alone, and the kernel's rules for shared directories apply to the link.
  const own = lstatSync(file, { throwIfNoEntry: false });
  const st = own?.isFile() ? own : undefined;
  // The rename ignores the target's permissions: a file the user may not write is refused, as any other
  // write to it would be.
  if (st !== undefined) {
    try {
      accessSync(file, constants.W_OK);
    } catch (error) {
      throw failure('cannot write', error);
    }
  }
  const dir = path.dirname(file);
  // At most kTempStemBytes of the name, so that the temporary name fits NAME_MAX (255) whatever its length
  // (a character cut in two becomes one U+FFFD, 3 bytes at most).
  const stem = Buffer.from(path.basename(file)).subarray(0, kTempStemBytes).toString();
  const temp = path.join(dir, `.${stem}.tmp-${randomBytes(6).toString('hex')}`);
  const mode = st === undefined ? newFileMode() : st.mode & 0o7777;
  let fd;
  try {
    fd = openSync(temp, 'wx', 0o600);
  } catch (error) {
    throw failure(`cannot create a temporary file in ${dir}`, error);
  }
  let step = 'cannot write';
  try {
    writeAll(fd, bytes);
    step = 'cannot set permissions';
    fchmodSync(fd, mode);
    step = 'cannot flush to disk';
    fsyncSync(fd);
    step = 'cannot write';
    const closing = fd;
    fd = undefined;
    closeSync(closing);
    step = 'cannot replace';
    renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // never created or already renamed
    }
    throw failure(step, error);
  }
  try {
    const dirFd = openSync(dir, 'r');
    fsyncSync(dirFd);
    closeSync(dirFd);
  } catch {
    // best effort: some file systems refuse fsync on a directory
  }
}
