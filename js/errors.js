// js/errors.js: the errors the module records (wasm/factory.h, enum ErrorKind), as JS Errors. The message
// is the core's what() text, which names options as JS spells them (wasm/factory.cpp):
// - options out of range, tables that do not fit in memory: RangeError;
// - bytes that are not a valid filter: FormatError (an Error, as C++ has cuckoo::FormatError);
// - anything else: Error.
import { rt } from './memory.js';

// Error kinds recorded by wasm/factory.cpp (enum ErrorKind).
const kInvalidArgument = 1;
export const kOutOfMemory = 2;
const kFormat = 3;

/** Bytes that are not a valid filter (docs/format.md), as C++ throws cuckoo::FormatError. */
export class FormatError extends Error {}
FormatError.prototype.name = 'FormatError';

const utf8 = new TextDecoder();

// The NUL-terminated UTF-8 string at address in wasm memory.
export function readCString(address) {
  const heap = rt.heap;
  let end = address;
  while (heap[end] !== 0) end++;
  return utf8.decode(heap.subarray(address, end));
}

// The kind of error the last create/deserialize/insert recorded (0: none).
export function lastErrorKind() {
  return rt.M._cuckoo_last_error_kind();
}

// Builds the JS Error for the last failed create/deserialize/merge, or for an insert whose growth did not
// fit. Bad bytes name a header's fields as docs/format.md does.
export function lastError() {
  const M = rt.M;
  const kind = M._cuckoo_last_error_kind();
  const message = readCString(M._cuckoo_last_error_message() >>> 0);
  if (kind === kInvalidArgument || kind === kOutOfMemory) return new RangeError(message);
  return kind === kFormat ? new FormatError(message) : new Error(message);
}
