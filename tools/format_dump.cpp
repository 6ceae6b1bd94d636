// tools/format_dump.cpp: an annotated hex dump of a serialized filter (docs/format.md's worked examples).
//
//   format_dump <file.bin> [--string KEY | --u64 KEY]...
//
// Reads the header and the table with its own code, straight from the spec in docs/format.md, so the
// dump doubles as a second implementation of the layout; then loads the file with the library
// (CuckooFilter::deserialize) and reports whether it is accepted. For each key given, prints the key's
// hash, buckets and fingerprint (docs/hashing.md) and whether the filter contains it.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <cuckoo/cuckoo.h>

namespace {

std::vector<uint8_t> bytes;

uint64_t le(size_t offset, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{bytes[offset + i]} << (8 * i);
  return v;
}

// Bit j of the table stream is bit (j % 8) of table byte j / 8.
uint64_t table_bits(uint64_t pos, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const uint64_t bit = pos + i;
    v |= uint64_t{(bytes[56 + bit / 8] >> (bit % 8)) & 1u} << i;
  }
  return v;
}

std::string hex_bytes(size_t offset, size_t n) {
  std::string s;
  char buf[4];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", bytes[offset + i]);
    s += (i ? " " : "") + std::string(buf);
  }
  return s;
}

void row(size_t offset, size_t n, const char* field, const std::string& value) {
  std::printf("%04zx  %-23s  %-18s %s\n", offset, hex_bytes(offset, n).c_str(), field, value.c_str());
}

std::string num(uint64_t v) { return std::to_string(v); }
std::string hex(uint64_t v, int width = 0) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", width, static_cast<unsigned long long>(v));
  return buf;
}

// The semi-sort code of a sorted nibble tuple: its rank in lexicographic order (docs/format.md).
void decode_code(uint64_t code, unsigned n[4]) {
  uint64_t rank = 0;
  for (unsigned a = 0; a < 16; ++a)
    for (unsigned b = a; b < 16; ++b)
      for (unsigned c = b; c < 16; ++c)
        for (unsigned d = c; d < 16; ++d, ++rank)
          if (rank == code) {
            n[0] = a, n[1] = b, n[2] = c, n[3] = d;
            return;
          }
  n[0] = n[1] = n[2] = n[3] = 99;  // invalid code (>= 3876)
}

void dump_table(unsigned b, unsigned f, bool semi, uint64_t buckets) {
  const unsigned entry_bits = semi ? f - 1 : f;
  const uint64_t bucket_bits = uint64_t{entry_bits} * b;
  for (uint64_t i = 0; i < buckets; ++i) {
    const uint64_t first = i * bucket_bits, last = first + bucket_bits - 1;
    const size_t from = 56 + first / 8, to = 56 + last / 8;
    std::string what = "bits " + num(first) + ".." + num(last) + ": ";
    if (semi) {
      const unsigned lb = f - 4;
      const uint64_t code = table_bits(first, 12);
      unsigned n[4];
      decode_code(code, n);
      what += "code " + num(code) + " = nibbles (" + num(n[0]) + "," + num(n[1]) + "," + num(n[2]) + "," +
              num(n[3]) + "), low bits";
      std::string entries;
      for (unsigned s = 0; s < 4; ++s) {
        const uint64_t low = table_bits(first + 12 + s * lb, lb);
        what += " " + hex(low);
        entries += (s ? ", " : "") + hex((uint64_t{n[s]} << lb) | low);
      }
      what += " -> entries [" + entries + "]";
    } else {
      what += "entries [";
      for (unsigned s = 0; s < b; ++s) what += (s ? ", " : "") + hex(table_bits(first + s * f, f));
      what += "]";
    }
    // Buckets that share a byte with the previous one print that byte again.
    std::printf("%04zx  %-23s  bucket %-11s %s\n", from, hex_bytes(from, to - from + 1).c_str(), num(i).c_str(),
                what.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: format_dump <file.bin> [--string KEY | --u64 KEY]...\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return std::perror(argv[1]), 1;
  if (bytes.size() < 64) return std::fprintf(stderr, "%s: shorter than 64 bytes\n", argv[1]), 1;

  const unsigned b = bytes[5], f = bytes[6], flags = bytes[7];
  const bool semi = flags & 1;
  const uint64_t buckets = le(24, 8);
  std::printf("offset bytes                    field              value\n");
  row(0, 4, "magic", std::string("\"") + std::string(bytes.begin(), bytes.begin() + 4) + "\"");
  row(4, 1, "version", num(bytes[4]));
  row(5, 1, "bucket_size", num(b));
  row(6, 1, "fingerprint_bits", num(f));
  row(7, 1, "flags", hex(flags, 2) + " (semi_sort " + num(flags & 1) + ", victim " + num((flags >> 1) & 1) + ")");
  row(8, 4, "max_kicks", num(le(8, 4)));
  row(12, 4, "victim_fp", hex(le(12, 4)));
  row(16, 8, "seed", num(le(16, 8)));
  row(24, 8, "bucket_count", num(buckets));
  row(32, 8, "item_count", num(le(32, 8)));
  row(40, 8, "victim_index", num(le(40, 8)));
  row(48, 8, "rng_state", hex(le(48, 8), 16));
  const uint64_t entry_bits = semi ? f - 1 : f;
  const uint64_t table = (buckets * b * entry_bits + 7) / 8;
  if (b != 2 && b != 4 && b != 8) return std::fprintf(stderr, "bad bucket size\n"), 1;
  if (bytes.size() != 64 + table) return std::fprintf(stderr, "length does not match the header\n"), 1;
  dump_table(b, f, semi, buckets);
  const uint64_t used = buckets * b * entry_bits;
  if (used % 8) std::printf("      (the top %u bits of byte %04llx are padding, zero)\n", unsigned(8 - used % 8),
                            static_cast<unsigned long long>(56 + table - 1));
  row(56 + table, 8, "checksum", hex(le(56 + table, 8), 16) + " = XXH3_64bits(bytes 0.." + num(56 + table - 1) + ", seed 0)");

  try {
    const cuckoo::CuckooFilter filter = cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size());
    std::printf("\naccepted by CuckooFilter::deserialize: size %llu, load %.4f\n",
                static_cast<unsigned long long>(filter.size()), filter.load_factor());
    // Keys: the hashing spec of docs/hashing.md, restated so the dump explains where each entry came from.
    const uint64_t range = (uint64_t{1} << f) - 1;
    for (int i = 2; i + 1 < argc; i += 2) {
      const std::string kind = argv[i], key = argv[i + 1];
      const bool is_u64 = kind == "--u64";
      const uint64_t h = is_u64 ? filter.hash(uint64_t{std::stoull(key)}) : filter.hash(std::string_view(key));
      const uint64_t i1 = ((h & 0xFFFFFFFFu) * buckets) >> 32;
      const uint64_t fp = 1 + (((h >> 32) * range) >> 32);
      const uint64_t t = ((((fp * 0x9E3779B97F4A7C15ull) >> 32) * buckets) >> 32) | 1;
      const uint64_t i2 = (t + buckets - i1 % buckets) % buckets;
      const bool found = is_u64 ? filter.contains(uint64_t{std::stoull(key)}) : filter.contains(std::string_view(key));
      std::printf("key %s%s%s: h = %s, i1 = %llu, fp = %s, i2 = %llu, contains = %s\n", is_u64 ? "" : "\"",
                  key.c_str(), is_u64 ? "" : "\"", hex(h, 16).c_str(), static_cast<unsigned long long>(i1),
                  hex(fp).c_str(), static_cast<unsigned long long>(i2), found ? "true" : "false");
    }
  } catch (const cuckoo::FormatError& e) {
    std::printf("\nrejected by CuckooFilter::deserialize: %s\n", e.what());
    return 1;
  }
  return 0;
}
