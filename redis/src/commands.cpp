// redis/src/commands.cpp: the CF.* commands (docs/redis.md is their reference).
//
// Replies follow RedisBloom's CF.* commands: the same reply types in RESP2 and RESP3 and, where the
// semantics are the same, the same error texts, so that clients written for RedisBloom work unchanged.
#include "commands.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "cf_value.h"
#include "module_api.h"

namespace cuckoo_redis {
namespace {

// RedisBloom's limits, kept so that the same arguments are accepted or refused with the same texts.
constexpr long long kMaxCapacity = 1073741824;
constexpr unsigned kDefaultCapacity = 1024;
constexpr unsigned kDefaultBucketSize = 4;

std::string_view arg(const rm::String* s) {
  size_t size = 0;
  const char* p = rm::StringPtrLen(s, &size);
  return {p, size};
}

bool is_keyword(const rm::String* s, std::string_view word) {
  const std::string_view a = arg(s);
  return a.size() == word.size() &&
         std::equal(a.begin(), a.end(), word.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == y;
         });
}

bool resp3(rm::Ctx* ctx) { return (rm::GetContextFlags(ctx) & rm::kCtxFlagsResp3) != 0; }

int reply_error(rm::Ctx* ctx, std::string message) {
  std::replace(message.begin(), message.end(), '\r', ' ');  // an error reply is one line
  std::replace(message.begin(), message.end(), '\n', ' ');
  return rm::ReplyWithError(ctx, message.c_str());
}

// An opened key, closed when it goes out of scope.
class OpenedKey {
 public:
  OpenedKey(rm::Ctx* ctx, rm::String* name, int mode) : key_(rm::OpenKey(ctx, name, mode)) {}
  ~OpenedKey() {
    if (key_ != nullptr) rm::CloseKey(key_);
  }
  OpenedKey(const OpenedKey&) = delete;
  OpenedKey& operator=(const OpenedKey&) = delete;

  bool empty() const { return key_ == nullptr || rm::KeyType(key_) == rm::kKeyTypeEmpty; }
  // This module's value, or null for an empty key or a key of another type.
  CfValue* value() const {
    if (empty() || rm::KeyType(key_) != rm::kKeyTypeModule || rm::ModuleTypeGetType(key_) != g_cf_type)
      return nullptr;
    return static_cast<CfValue*>(rm::ModuleTypeGetValue(key_));
  }
  bool wrong_type() const { return !empty() && value() == nullptr; }
  void set(CfValue* value) { rm::ModuleTypeSetValue(key_, g_cf_type, value); }  // takes ownership
  void remove() { rm::DeleteKey(key_); }

 private:
  rm::Key* key_;
};

int reply_incomplete(rm::Ctx* ctx, const CfValue& value) {
  return reply_error(ctx, "ERR filter is incomplete: CF.LOADCHUNK has " + std::to_string(value.pending.size()) +
                              " of its " + std::to_string(value.expected_bytes) + " bytes");
}

struct CreateOptions {
  long long capacity = kDefaultCapacity;
  unsigned bucket_size = kDefaultBucketSize;
  std::optional<unsigned> max_iterations;
  bool growable = true;
  std::optional<double> fpr;
};

std::unique_ptr<cuckoo::CuckooFilter> create_filter(const CreateOptions& o) {
  cuckoo::Options options;
  options.capacity = static_cast<uint64_t>(o.capacity);
  options.bucket_size = o.bucket_size;
  if (o.max_iterations) options.max_kicks = *o.max_iterations;
  options.growable = o.growable;
  if (o.growable) options.max_memory_bytes = g_max_filter_bytes;
  options.fpr = o.fpr;
  return std::make_unique<cuckoo::CuckooFilter>(options);
}

std::string capacity_range_error() {
  return "Capacity must be in the range [2 * BUCKETSIZE, " + std::to_string(kMaxCapacity) + "]";
}

// Parses an integer option's value as RedisBloom does: "Couldn't parse NAME" when not an integer,
// "NAME: value must be in the range [lo, hi]" when outside RedisBloom's range. Returns false after replying.
bool parse_ranged(rm::Ctx* ctx, const rm::String* s, const char* name, long long lo, long long hi, long long* out) {
  if (rm::StringToLongLong(s, out) != rm::kOk) {
    reply_error(ctx, std::string("Couldn't parse ") + name);
    return false;
  }
  if (*out < lo || *out > hi) {
    reply_error(ctx, std::string(name) + ": value must be in the range [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
    return false;
  }
  return true;
}

bool parse_fpr(rm::Ctx* ctx, const rm::String* s, std::optional<double>* out) {
  double rate = 0;
  if (rm::StringToDouble(s, &rate) != rm::kOk) {
    reply_error(ctx, "Couldn't parse FPR");
    return false;
  }
  if (!(rate > 0 && rate < 1)) {
    reply_error(ctx, "FPR: value must be in the range (0, 1)");
    return false;
  }
  *out = rate;
  return true;
}

// The reply for an insert the filter refused (nothing stored changed).
int reply_refused(rm::Ctx* ctx, const cuckoo::CuckooFilter& filter) {
  if (!filter.is_full()) return reply_error(ctx, "Filter is full for this item: its buckets are full of its copies or colliding items (other items still fit)");
  if (filter.config().growable) return reply_error(ctx, "Maximum expansions reached");
  return reply_error(ctx, "Filter is full");
}

// CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e] [FPR rate]
int reserve(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc < 3 || argc % 2 == 0) return rm::WrongArity(ctx);
  CreateOptions options;
  if (rm::StringToLongLong(argv[2], &options.capacity) != rm::kOk) return reply_error(ctx, "Bad capacity");
  for (int i = 3; i < argc; i += 2) {
    long long v = 0;
    if (is_keyword(argv[i], "BUCKETSIZE")) {
      if (!parse_ranged(ctx, argv[i + 1], "BUCKETSIZE", 1, 255, &v)) return rm::kOk;
      if (v != 2 && v != 4 && v != 8) return reply_error(ctx, "BUCKETSIZE: value must be 2, 4 or 8");
      options.bucket_size = static_cast<unsigned>(v);
    } else if (is_keyword(argv[i], "MAXITERATIONS")) {
      if (!parse_ranged(ctx, argv[i + 1], "MAXITERATIONS", 1, 65535, &v)) return rm::kOk;
      options.max_iterations = static_cast<unsigned>(v);
    } else if (is_keyword(argv[i], "EXPANSION")) {
      if (!parse_ranged(ctx, argv[i + 1], "EXPANSION", 0, 32768, &v)) return rm::kOk;
      if (v > 2) return reply_error(ctx, "EXPANSION: value must be 0 (a fixed filter), 1 or 2 (a filter that grows by doubling)");
      options.growable = v != 0;
    } else if (is_keyword(argv[i], "FPR")) {
      if (!parse_fpr(ctx, argv[i + 1], &options.fpr)) return rm::kOk;
    }
    // Any other option pair is ignored, as RedisBloom does.
  }
  if (options.capacity < 2 * static_cast<long long>(options.bucket_size) || options.capacity > kMaxCapacity)
    return reply_error(ctx, capacity_range_error());

  OpenedKey key(ctx, argv[1], rm::kRead | rm::kWrite);
  if (key.wrong_type()) return reply_error(ctx, rm::kWrongTypeError);
  if (!key.empty()) return reply_error(ctx, "ERR item exists");
  auto value = std::make_unique<CfValue>();
  value->filter = create_filter(options);
  key.set(value.release());
  rm::ReplicateVerbatim(ctx);
  return rm::ReplyWithSimpleString(ctx, "OK");
}

// The filter at `key` for an insert, created with `create` if the key is missing and create is set.
// Replies and returns null when there is none to insert into.
cuckoo::CuckooFilter* filter_for_insert(rm::Ctx* ctx, OpenedKey& key, const CreateOptions* create) {
  if (key.wrong_type()) {
    reply_error(ctx, rm::kWrongTypeError);
    return nullptr;
  }
  if (key.empty()) {
    if (create == nullptr) {
      reply_error(ctx, "ERR not found");
      return nullptr;
    }
    auto value = std::make_unique<CfValue>();
    value->filter = create_filter(*create);
    cuckoo::CuckooFilter* filter = value->filter.get();
    key.set(value.release());
    return filter;
  }
  CfValue* value = key.value();
  if (value->loading()) {
    reply_incomplete(ctx, *value);
    return nullptr;
  }
  value->invalidate();
  return value->filter.get();
}

// CF.ADD key item, CF.ADDNX key item
int add(rm::Ctx* ctx, rm::String** argv, int argc, bool nx) {
  if (argc != 3) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead | rm::kWrite);
  const CreateOptions defaults;
  cuckoo::CuckooFilter* filter = filter_for_insert(ctx, key, &defaults);
  if (filter == nullptr) return rm::kOk;
  rm::ReplicateVerbatim(ctx);  // also when refused: the key may have just been created
  const std::string_view item = arg(argv[2]);
  const cuckoo::InsertResult result = nx                                         ? filter->insert_if_absent(item.data(), item.size())
                                      : filter->insert(item.data(), item.size()) ? cuckoo::InsertResult::kInserted
                                                                                 : cuckoo::InsertResult::kRefused;
  if (result == cuckoo::InsertResult::kRefused) return reply_refused(ctx, *filter);
  return rm::ReplyWithBool(ctx, result == cuckoo::InsertResult::kInserted);
}

// An insert (or, for the NX commands, an insert unless present) inside an array reply: running out of
// memory is a refusal (-1) there, since an error reply would break the array.
cuckoo::InsertResult insert_in_array(cuckoo::CuckooFilter& filter, std::string_view item, bool nx) {
  try {
    if (nx) return filter.insert_if_absent(item.data(), item.size());
    return filter.insert(item.data(), item.size()) ? cuckoo::InsertResult::kInserted : cuckoo::InsertResult::kRefused;
  } catch (const std::bad_alloc&) {
    return cuckoo::InsertResult::kRefused;
  }
}

// CF.INSERT key [CAPACITY c] [NOCREATE] [FPR rate] ITEMS item..., and CF.INSERTNX. As in RedisBloom,
// keywords are recognised by their first letter and everything after ITEMS is an item.
int insert(rm::Ctx* ctx, rm::String** argv, int argc, bool nx) {
  if (argc < 4) return rm::WrongArity(ctx);
  CreateOptions create;
  bool nocreate = false;
  int items = -1;
  for (int i = 2; i < argc && items < 0;) {
    const std::string_view word = arg(argv[i]);
    switch (word.empty() ? '\0' : std::tolower(static_cast<unsigned char>(word[0]))) {
      case 'c':
        if (++i == argc) return rm::WrongArity(ctx);
        if (rm::StringToLongLong(argv[i++], &create.capacity) != rm::kOk) return reply_error(ctx, "Bad capacity");
        if (create.capacity < 2 * static_cast<long long>(create.bucket_size) || create.capacity > kMaxCapacity)
          return reply_error(ctx, capacity_range_error());
        break;
      case 'f':
        if (++i == argc) return rm::WrongArity(ctx);
        if (!parse_fpr(ctx, argv[i++], &create.fpr)) return rm::kOk;
        break;
      case 'i':
        items = ++i;
        break;
      case 'n':
        nocreate = true;
        ++i;
        break;
      default:
        return reply_error(ctx, "Unknown argument received");
    }
  }
  if (items < 0 || items == argc) return rm::WrongArity(ctx);

  OpenedKey key(ctx, argv[1], rm::kRead | rm::kWrite);
  cuckoo::CuckooFilter* filter = filter_for_insert(ctx, key, nocreate ? nullptr : &create);
  if (filter == nullptr) return rm::kOk;
  rm::ReplicateVerbatim(ctx);
  const bool booleans = resp3(ctx) && !nx;  // CF.INSERT answers booleans in RESP3; CF.INSERTNX integers
  rm::ReplyWithArray(ctx, argc - items);
  for (int i = items; i < argc; ++i) {
    switch (insert_in_array(*filter, arg(argv[i]), nx)) {
      case cuckoo::InsertResult::kInserted:
        booleans ? rm::ReplyWithBool(ctx, 1) : rm::ReplyWithLongLong(ctx, 1);
        break;
      case cuckoo::InsertResult::kPresent:  // CF.INSERTNX only
        rm::ReplyWithLongLong(ctx, 0);
        break;
      case cuckoo::InsertResult::kRefused:
        booleans ? rm::ReplyWithBool(ctx, 0) : rm::ReplyWithLongLong(ctx, -1);
        break;
    }
  }
  return rm::kOk;
}

// CF.EXISTS key item, CF.MEXISTS key item..., CF.COUNT key item. A missing key or one of another type
// answers 0 for every item, as in RedisBloom.
int check(rm::Ctx* ctx, rm::String** argv, int argc, bool multi, bool count) {
  if (multi ? argc < 3 : argc != 3) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead);
  const CfValue* value = key.value();
  if (value != nullptr && value->loading()) return reply_incomplete(ctx, *value);
  const cuckoo::CuckooFilter* filter = value != nullptr ? value->filter.get() : nullptr;
  if (multi) rm::ReplyWithArray(ctx, argc - 2);
  for (int i = 2; i < argc; ++i) {
    const std::string_view item = arg(argv[i]);
    if (count) {
      rm::ReplyWithLongLong(ctx, filter ? static_cast<long long>(filter->count(item.data(), item.size())) : 0);
    } else {
      rm::ReplyWithBool(ctx, filter ? filter->contains(item.data(), item.size()) : 0);
    }
  }
  return rm::kOk;
}

// CF.DEL key item
int del(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 3) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead | rm::kWrite);
  CfValue* value = key.value();
  if (value == nullptr) return reply_error(ctx, "Not found");
  if (value->loading()) return reply_incomplete(ctx, *value);
  const std::string_view item = arg(argv[2]);
  if (!value->filter->erase(item.data(), item.size())) return rm::ReplyWithBool(ctx, 0);
  ++value->deletes;
  value->invalidate();
  rm::ReplicateVerbatim(ctx);
  return rm::ReplyWithBool(ctx, 1);
}

// A complete filter for a read command, or null after replying RedisBloom's errors.
const CfValue* filter_for_read(rm::Ctx* ctx, const OpenedKey& key) {
  if (key.wrong_type()) {
    reply_error(ctx, rm::kWrongTypeError);
    return nullptr;
  }
  if (key.empty()) {
    reply_error(ctx, "ERR not found");
    return nullptr;
  }
  const CfValue* value = key.value();
  if (value->loading()) {
    reply_incomplete(ctx, *value);
    return nullptr;
  }
  return value;
}

// CF.INFO key
int info(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 2) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead);
  const CfValue* value = filter_for_read(ctx, key);
  if (value == nullptr) return rm::kOk;
  const cuckoo::CuckooFilter& f = *value->filter;
  const std::pair<const char*, long long> fields[] = {
      {"Size", static_cast<long long>(value->memory_bytes())},
      {"Number of buckets", static_cast<long long>(f.bucket_count())},
      {"Number of filters", static_cast<long long>(f.levels())},
      {"Number of items inserted", static_cast<long long>(f.size())},
      {"Number of items deleted", static_cast<long long>(value->deletes)},
      {"Bucket size", static_cast<long long>(f.config().bucket_size)},
      {"Expansion rate", f.config().growable ? 2 : 0},
      {"Max iterations", static_cast<long long>(f.config().max_kicks)},
  };
  rm::ReplyWithMap(ctx, std::size(fields));  // a flat array of name, value pairs in RESP2
  for (const auto& [name, number] : fields) {
    rm::ReplyWithSimpleString(ctx, name);
    rm::ReplyWithLongLong(ctx, number);
  }
  return rm::kOk;
}

// CF.COMPACT key: RedisBloom moves items into older sub-filters to free newer ones; a growing filter here
// keeps each item in the level its fingerprint width belongs to, so there is nothing to do.
int compact(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 2) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead);
  if (key.value() == nullptr) return reply_error(ctx, "Cuckoo filter was not found");
  return rm::ReplyWithSimpleString(ctx, "OK");
}

int reply_piece(rm::Ctx* ctx, long long next, const uint8_t* bytes, size_t size) {
  rm::ReplyWithArray(ctx, 2);
  rm::ReplyWithLongLong(ctx, next);
  if (bytes == nullptr) return rm::ReplyWithNull(ctx);
  return rm::ReplyWithStringBuffer(ctx, reinterpret_cast<const char*>(bytes), size);
}

// CF.SCANDUMP key iter: the filter's portable bytes in pieces. Position 0 answers the 56-byte header;
// every reply's number is 1 + the byte offset where its piece ends, and is the next position to ask;
// past the last byte the reply is [0, nil]. The pieces concatenated are exactly CF.EXPORT's bytes.
int scandump(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 3) return rm::WrongArity(ctx);
  long long position = 0;
  if (rm::StringToLongLong(argv[2], &position) != rm::kOk || position < 0)
    return reply_error(ctx, "Invalid position");
  OpenedKey key(ctx, argv[1], rm::kRead);
  if (filter_for_read(ctx, key) == nullptr) return rm::kOk;
  CfValue* value = key.value();
  const uint64_t total = value->filter->serialized_size();
  const uint64_t start = position == 0 ? 0 : static_cast<uint64_t>(position) - 1;
  if (start >= total) {
    value->invalidate();
    return reply_piece(ctx, 0, nullptr, 0);
  }
  const size_t limit = position == 0 ? cuckoo::kHeaderBytes : std::max<size_t>(g_chunk_bytes, 1);
  if (position == 0) {
    value->invalidate();
    value->writer = std::make_unique<cuckoo::FilterWriter>(*value->filter);
  }
  if (value->writer && value->writer->position() == start) {
    const cuckoo::FilterWriter::Piece piece = value->writer->next(limit);
    reply_piece(ctx, static_cast<long long>(start + piece.size + 1), piece.data, piece.size);
    if (value->writer->done()) value->invalidate();
    return rm::kOk;
  }
  // Out of turn, or after a write (see CfValue::writer): from a copy of the bytes as they are now.
  if (value->dump.size() != total) {
    value->writer.reset();
    value->dump = value->filter->serialize();
  }
  const uint64_t size = std::min<uint64_t>(limit, total - start);
  reply_piece(ctx, static_cast<long long>(start + size + 1), value->dump.data() + start, size);
  if (start + size == total) value->invalidate();
  return rm::kOk;
}

// Turns a loading value whose bytes are all in into a filter; throws cuckoo::FormatError on bad bytes.
void finish_load(CfValue& value) {
  value.filter = std::make_unique<cuckoo::CuckooFilter>(
      cuckoo::CuckooFilter::deserialize(value.pending.data(), value.pending.size()));
  std::string().swap(value.pending);
  value.expected_bytes = 0;
}

// CF.LOADCHUNK key iter data: pieces of portable bytes, in order, as CF.SCANDUMP gave them (iter is the
// number it gave with the piece: 1 + the offset where the piece ends). The first piece, which must hold
// the whole header, creates the key in a loading state; the last one turns it into the filter. A piece
// out of order, too long, or bytes that do not load delete the partial key: no half-built filter stays.
int loadchunk(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 4) return rm::WrongArity(ctx);
  long long position = 0;
  if (rm::StringToLongLong(argv[2], &position) != rm::kOk || position < 1)
    return reply_error(ctx, "Invalid position");
  const std::string_view piece = arg(argv[3]);
  const uint64_t end = static_cast<uint64_t>(position) - 1;
  if (piece.size() > end) return reply_error(ctx, "Couldn't load chunk! The position ends before the chunk's length");
  const uint64_t start = end - piece.size();

  OpenedKey key(ctx, argv[1], rm::kRead | rm::kWrite);
  if (key.wrong_type()) return reply_error(ctx, rm::kWrongTypeError);
  if (key.empty()) {
    if (start != 0) return reply_error(ctx, "ERR not found");  // a piece before the first
    auto value = std::make_unique<CfValue>();
    value->expected_bytes = dump_size(reinterpret_cast<const uint8_t*>(piece.data()), piece.size());
    if (value->expected_bytes == 0) return reply_error(ctx, "Invalid header");
    if (piece.size() > value->expected_bytes)
      return reply_error(ctx, "Couldn't load chunk! The chunk is longer than the filter its header describes");
    value->pending.assign(piece.data(), piece.size());
    if (value->pending.size() == value->expected_bytes) finish_load(*value);  // FormatError: nothing created
    key.set(value.release());
    rm::ReplicateVerbatim(ctx);
    return rm::ReplyWithSimpleString(ctx, "OK");
  }
  CfValue* value = key.value();
  if (!value->loading()) return reply_error(ctx, "ERR item exists");
  // From here on a failure deletes the partial key; the command is replicated so that replicas and the
  // AOF, which hold the same partial key, delete it too.
  std::string failure;
  if (start != value->pending.size()) {
    failure = "Couldn't load chunk! Expected the chunk at byte " + std::to_string(value->pending.size()) +
              ", got one at byte " + std::to_string(start);
  } else if (value->pending.size() + piece.size() > value->expected_bytes) {
    failure = "Couldn't load chunk! The chunk ends past the filter's " + std::to_string(value->expected_bytes) + " bytes";
  } else {
    value->pending.append(piece.data(), piece.size());
    if (value->pending.size() == value->expected_bytes) {
      try {
        finish_load(*value);
      } catch (const cuckoo::FormatError& e) {
        failure = std::string("ERR ") + e.what();
      }
    }
  }
  rm::ReplicateVerbatim(ctx);
  if (!failure.empty()) {
    key.remove();
    return reply_error(ctx, failure + " (the partial filter was deleted)");
  }
  return rm::ReplyWithSimpleString(ctx, "OK");
}

// CF.EXPORT key: the filter's portable bytes (docs/format.md) as one bulk string.
int export_bytes(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 2) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead);
  const CfValue* value = filter_for_read(ctx, key);
  if (value == nullptr) return rm::kOk;
  const std::vector<uint8_t> bytes = value->filter->serialize();
  return rm::ReplyWithStringBuffer(ctx, reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// CF.IMPORT key bytes: creates a filter from portable bytes, such as CF.EXPORT's or a file the library wrote.
int import_bytes(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (argc != 3) return rm::WrongArity(ctx);
  OpenedKey key(ctx, argv[1], rm::kRead | rm::kWrite);
  if (key.wrong_type()) return reply_error(ctx, rm::kWrongTypeError);
  if (!key.empty()) return reply_error(ctx, "ERR item exists");
  const std::string_view bytes = arg(argv[2]);
  auto value = std::make_unique<CfValue>();
  value->filter = std::make_unique<cuckoo::CuckooFilter>(cuckoo::CuckooFilter::deserialize(bytes.data(), bytes.size()));
  key.set(value.release());
  rm::ReplicateVerbatim(ctx);
  return rm::ReplyWithSimpleString(ctx, "OK");
}

// Runs a command, turning an exception into an error reply: nothing may unwind into the server.
template <int (*Command)(rm::Ctx*, rm::String**, int)>
int guarded(rm::Ctx* ctx, rm::String** argv, int argc) {
  try {
    return Command(ctx, argv, argc);
  } catch (const std::bad_alloc&) {
    return reply_error(ctx, "ERR Insufficient memory");
  } catch (const cuckoo::FormatError& e) {
    return reply_error(ctx, std::string("ERR ") + e.what());
  } catch (const std::exception& e) {
    return reply_error(ctx, std::string("ERR ") + e.what());
  }
}

int add_cmd(rm::Ctx* c, rm::String** v, int n) { return add(c, v, n, false); }
int addnx_cmd(rm::Ctx* c, rm::String** v, int n) { return add(c, v, n, true); }
int insert_cmd(rm::Ctx* c, rm::String** v, int n) { return insert(c, v, n, false); }
int insertnx_cmd(rm::Ctx* c, rm::String** v, int n) { return insert(c, v, n, true); }
int exists_cmd(rm::Ctx* c, rm::String** v, int n) { return check(c, v, n, false, false); }
int mexists_cmd(rm::Ctx* c, rm::String** v, int n) { return check(c, v, n, true, false); }
int count_cmd(rm::Ctx* c, rm::String** v, int n) { return check(c, v, n, false, true); }

struct CommandSpec {
  const char* name;
  rm::CmdFunc function;
  const char* flags;
};

// Arity is checked by each command (as RedisBloom does), so that the errors are the server's usual text.
const CommandSpec kCommands[] = {
    {"cf.reserve", guarded<reserve>, "write deny-oom"},
    {"cf.add", guarded<add_cmd>, "write deny-oom"},
    {"cf.addnx", guarded<addnx_cmd>, "write deny-oom"},
    {"cf.insert", guarded<insert_cmd>, "write deny-oom"},
    {"cf.insertnx", guarded<insertnx_cmd>, "write deny-oom"},
    {"cf.exists", guarded<exists_cmd>, "readonly fast"},
    {"cf.mexists", guarded<mexists_cmd>, "readonly fast"},
    {"cf.count", guarded<count_cmd>, "readonly fast"},
    {"cf.del", guarded<del>, "write fast"},
    {"cf.info", guarded<info>, "readonly fast"},
    {"cf.compact", guarded<compact>, "readonly fast"},
    {"cf.scandump", guarded<scandump>, "readonly"},
    {"cf.loadchunk", guarded<loadchunk>, "write deny-oom"},
    {"cf.export", guarded<export_bytes>, "readonly"},
    {"cf.import", guarded<import_bytes>, "write deny-oom"},
};

}  // namespace

bool register_commands(rm::Ctx* ctx) {
  for (const CommandSpec& command : kCommands) {
    if (rm::CreateCommand(ctx, command.name, command.function, command.flags, 1, 1, 1) != rm::kOk) return false;
  }
  return true;
}

}  // namespace cuckoo_redis
