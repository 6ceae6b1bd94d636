// js/errors.node.js: js/errors.js as Node's entry has it (scripts/build-wasm.mjs bundles this module in its
// place). The RangeError for an option the core refused also says which option and which value, as the
// node module records them (wasm/factory.h, last_error_option): `option`, its JS name; `value`, the value
// refused, as the message writes it ("3", "1e-12", "true"); `messageParts`, the message as text with each
// option's JS name in between (odd indices), so that a front end can name options its own way (js/cli/).
// The web module has no such record, and pages do not download this code.
import { lastError as recordedError, readCString } from './errors.js';
import { rt } from './memory.js';
import { kOptions } from './options.js';
export { FormatError, kOutOfMemory, lastErrorKind } from './errors.js';

export function lastError() {
  const error = recordedError();
  const M = rt.M;
  const option = M._cuckoo_last_error_option();
  if (option < 0) return error;
  const names = Object.keys(kOptions);
  // Each option in the text is "\x1f" and the letter 'A' + its index (cuckoo::OptionError::placeholder).
  const messageParts = readCString(M._cuckoo_last_error_option_text() >>> 0).split(/\x1f([A-Z])/);
  for (let i = 1; i < messageParts.length; i += 2) messageParts[i] = names[messageParts[i].charCodeAt(0) - 65];
  const value = readCString(M._cuckoo_last_error_option_value() >>> 0);
  return Object.assign(error, { option: names[option], value, messageParts });
}
