// redis/src/module_api.h: the part of the Redis module API (Redis 7.0+) this module calls, declared from
// the API's documentation (Debian ships no redismodule.h).
//
// How the API is reached: the server passes RedisModule_OnLoad a context whose first pointer-sized field is
// a lookup function, int (*)(const char* name, void* out), that stores the address of the API function
// "RedisModule_<Name>" in *out and returns REDISMODULE_OK (0), or REDISMODULE_ERR when the server lacks
// it. rm::init() looks up every function below that way; until it has succeeded, none may be called.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rm {

struct Ctx;     // RedisModuleCtx: the context of one command call (or of OnLoad)
struct String;  // RedisModuleString
struct Key;     // RedisModuleKey: an opened key
struct Type;    // RedisModuleType: a registered data type
struct IO;      // RedisModuleIO: an RDB or AOF stream
struct Digest;  // RedisModuleDigest (DEBUG DIGEST)

inline constexpr int kOk = 0;
inline constexpr int kErr = 1;
inline constexpr int kApiVersion1 = 1;

// OpenKey modes.
inline constexpr int kRead = 1 << 0;
inline constexpr int kWrite = 1 << 1;

// KeyType results.
inline constexpr int kKeyTypeEmpty = 0;
inline constexpr int kKeyTypeModule = 6;

// GetContextFlags: the calling client speaks RESP3.
inline constexpr int kCtxFlagsResp3 = 1 << 22;

inline constexpr const char* kWrongTypeError =
    "WRONGTYPE Operation against a key holding the wrong kind of value";

using CmdFunc = int (*)(Ctx* ctx, String** argv, int argc);
using TypeLoadFunc = void* (*)(IO* rdb, int encver);
using TypeSaveFunc = void (*)(IO* rdb, void* value);
using TypeRewriteFunc = void (*)(IO* aof, String* key, void* value);
using TypeMemUsageFunc = size_t (*)(const void* value);
using TypeDigestFunc = void (*)(Digest* digest, void* value);
using TypeFreeFunc = void (*)(void* value);
using TypeCopyFunc = void* (*)(String* fromkey, String* tokey, const void* value);

// RedisModuleTypeMethods up to `copy` (method version 3, which Redis 7.0 reads); unused callbacks null.
struct TypeMethods {
  uint64_t version = 3;
  TypeLoadFunc rdb_load = nullptr;
  TypeSaveFunc rdb_save = nullptr;
  TypeRewriteFunc aof_rewrite = nullptr;
  TypeMemUsageFunc mem_usage = nullptr;
  TypeDigestFunc digest = nullptr;
  TypeFreeFunc free = nullptr;
  void* aux_load = nullptr;
  void* aux_save = nullptr;
  int aux_save_triggers = 0;
  void* free_effort = nullptr;
  void* unlink = nullptr;
  TypeCopyFunc copy = nullptr;
};

// The API functions, named as in the documentation without the RedisModule_ prefix.
extern void (*SetModuleAttribs)(Ctx* ctx, const char* name, int ver, int apiver);
extern int (*CreateCommand)(Ctx* ctx, const char* name, CmdFunc cmdfunc, const char* strflags, int firstkey,
                            int lastkey, int keystep);
extern Type* (*CreateDataType)(Ctx* ctx, const char* name, int encver, TypeMethods* typemethods);
extern Key* (*OpenKey)(Ctx* ctx, String* keyname, int mode);
extern void (*CloseKey)(Key* key);
extern int (*KeyType)(Key* key);
extern Type* (*ModuleTypeGetType)(Key* key);
extern void* (*ModuleTypeGetValue)(Key* key);
extern int (*ModuleTypeSetValue)(Key* key, Type* mt, void* value);
extern int (*DeleteKey)(Key* key);
extern const char* (*StringPtrLen)(const String* str, size_t* len);
extern int (*StringToLongLong)(const String* str, long long* ll);
extern int (*StringToDouble)(const String* str, double* d);
extern int (*WrongArity)(Ctx* ctx);
extern int (*ReplyWithError)(Ctx* ctx, const char* err);
extern int (*ReplyWithSimpleString)(Ctx* ctx, const char* msg);
extern int (*ReplyWithLongLong)(Ctx* ctx, long long ll);
extern int (*ReplyWithBool)(Ctx* ctx, int b);
extern int (*ReplyWithArray)(Ctx* ctx, long len);
extern int (*ReplyWithMap)(Ctx* ctx, long len);
extern int (*ReplyWithStringBuffer)(Ctx* ctx, const char* buf, size_t len);
extern int (*ReplyWithNull)(Ctx* ctx);
extern int (*ReplicateVerbatim)(Ctx* ctx);
extern int (*GetContextFlags)(Ctx* ctx);
extern void (*SaveUnsigned)(IO* io, uint64_t value);
extern uint64_t (*LoadUnsigned)(IO* io);
extern void (*SaveStringBuffer)(IO* io, const char* str, size_t len);
extern char* (*LoadStringBuffer)(IO* io, size_t* lenptr);  // free the result with Free
extern void (*EmitAOF)(IO* io, const char* cmdname, const char* fmt, ...);
extern void (*LogIOError)(IO* io, const char* levelstr, const char* fmt, ...);
extern void (*Log)(Ctx* ctx, const char* levelstr, const char* fmt, ...);
extern void (*DigestAddStringBuffer)(Digest* md, const char* ele, size_t len);
extern void (*DigestEndSequence)(Digest* md);
extern void (*Free)(void* ptr);

// Looks every function above up through the context's lookup function and registers the module's name
// and version. Returns kErr if the server lacks one of them (older than 7.0) or the name is taken.
int init(Ctx* ctx, const char* name, int version);

}  // namespace rm
