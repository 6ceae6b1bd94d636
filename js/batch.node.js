// js/batch.node.js: addManyIfAbsent() as Node's entry has it (js/node.js): the keys packed as addMany()
// packs them (js/batch.js), one call of the node module's insert_many_if_absent per chunk
// (wasm/hot_path.cpp). Pages run has() then add() per key instead (js/cuckoo_filter.js), on calls their
// module has anyway; both store and answer alike.
import { rt } from './memory.js';
import { batch, pack, withBatch } from './batch.js';
import { lastError, lastErrorKind, kOutOfMemory } from './errors.js';
import { checkKeys, toArray } from './classify.js';

// insert_if_absent on each key in order; stops at the first key refused and returns how many keys came
// before it (stored or present). When a growing filter's new level does not fit in wasm memory, throws
// that RangeError, as add() does. filterAddress() gives the filter's address, or throws if it was
// disposed (by a key's getter, even).
export function addManyIfAbsent(filterAddress, keys) {
  const list = toArray(keys, 'addManyIfAbsent');
  checkKeys(list, 0, list.length);
  return withBatch('addManyIfAbsent', () => {
    let done = 0;
    while (done < list.length) {
      const m = pack(list, done);
      const handled = rt.M._cuckoo_insert_many_if_absent(filterAddress(), batch.data, batch.offsets, m) >>> 0;
      if (lastErrorKind() === kOutOfMemory) throw lastError();
      done += handled;
      if (handled < m) break;
    }
    return done;
  });
}
