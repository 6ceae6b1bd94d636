// js/errors.js: the errors the module records (wasm/factory.h, enum ErrorKind), as JS Errors. The message
// is the core's what() text; options out of range and tables that do not fit in memory are RangeErrors,
// bad bytes and everything else Errors.
import { rt } from './memory.js';
import { kOptionNames } from './options.js';

// Error kinds recorded by wasm/factory.cpp (enum ErrorKind).
const kInvalidArgument = 1;
export const kOutOfMemory = 2;

const utf8 = new TextDecoder();

// The NUL-terminated UTF-8 string at address in wasm memory.
function readCString(address) {
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
// fit. Options are the caller's, so a RangeError names them as JS spells them (options.js's kOptionNames:
// targetLoad for the core's target_load); a header's fields keep docs/format.md's names.
export function lastError() {
  const M = rt.M;
  const kind = M._cuckoo_last_error_kind();
  let message = readCString(M._cuckoo_last_error_message() >>> 0);
  if (kind !== kInvalidArgument && kind !== kOutOfMemory) return new Error(message);
  for (const name in kOptionNames) message = message.replaceAll(kOptionNames[name], name);
  return new RangeError(message);
}
