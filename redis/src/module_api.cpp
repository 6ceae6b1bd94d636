// redis/src/module_api.cpp: looks the module API functions up (module_api.h says how).
#include "module_api.h"

namespace rm {

void (*SetModuleAttribs)(Ctx*, const char*, int, int);
int (*CreateCommand)(Ctx*, const char*, CmdFunc, const char*, int, int, int);
Type* (*CreateDataType)(Ctx*, const char*, int, TypeMethods*);
Key* (*OpenKey)(Ctx*, String*, int);
void (*CloseKey)(Key*);
int (*KeyType)(Key*);
Type* (*ModuleTypeGetType)(Key*);
void* (*ModuleTypeGetValue)(Key*);
int (*ModuleTypeSetValue)(Key*, Type*, void*);
int (*DeleteKey)(Key*);
const char* (*StringPtrLen)(const String*, size_t*);
int (*StringToLongLong)(const String*, long long*);
int (*StringToDouble)(const String*, double*);
int (*WrongArity)(Ctx*);
int (*ReplyWithError)(Ctx*, const char*);
int (*ReplyWithSimpleString)(Ctx*, const char*);
int (*ReplyWithLongLong)(Ctx*, long long);
int (*ReplyWithBool)(Ctx*, int);
int (*ReplyWithArray)(Ctx*, long);
int (*ReplyWithMap)(Ctx*, long);
int (*ReplyWithStringBuffer)(Ctx*, const char*, size_t);
int (*ReplyWithNull)(Ctx*);
int (*ReplicateVerbatim)(Ctx*);
int (*GetContextFlags)(Ctx*);
void (*SaveUnsigned)(IO*, uint64_t);
uint64_t (*LoadUnsigned)(IO*);
void (*SaveStringBuffer)(IO*, const char*, size_t);
char* (*LoadStringBuffer)(IO*, size_t*);
void (*EmitAOF)(IO*, const char*, const char*, ...);
void (*LogIOError)(IO*, const char*, const char*, ...);
void (*Log)(Ctx*, const char*, const char*, ...);
void (*DigestAddStringBuffer)(Digest*, const char*, size_t);
void (*DigestEndSequence)(Digest*);
void (*Free)(void*);

namespace {

using GetApiFunc = int (*)(const char* name, void* out);

struct Entry {
  const char* name;
  void* slot;  // address of one of the function pointers above
};

}  // namespace

int init(Ctx* ctx, const char* name, int version) {
  // The lookup function is the context's first field (module_api.h).
  GetApiFunc get_api = *reinterpret_cast<GetApiFunc*>(ctx);
  const Entry entries[] = {
      {"RedisModule_SetModuleAttribs", &SetModuleAttribs},
      {"RedisModule_CreateCommand", &CreateCommand},
      {"RedisModule_CreateDataType", &CreateDataType},
      {"RedisModule_OpenKey", &OpenKey},
      {"RedisModule_CloseKey", &CloseKey},
      {"RedisModule_KeyType", &KeyType},
      {"RedisModule_ModuleTypeGetType", &ModuleTypeGetType},
      {"RedisModule_ModuleTypeGetValue", &ModuleTypeGetValue},
      {"RedisModule_ModuleTypeSetValue", &ModuleTypeSetValue},
      {"RedisModule_DeleteKey", &DeleteKey},
      {"RedisModule_StringPtrLen", &StringPtrLen},
      {"RedisModule_StringToLongLong", &StringToLongLong},
      {"RedisModule_StringToDouble", &StringToDouble},
      {"RedisModule_WrongArity", &WrongArity},
      {"RedisModule_ReplyWithError", &ReplyWithError},
      {"RedisModule_ReplyWithSimpleString", &ReplyWithSimpleString},
      {"RedisModule_ReplyWithLongLong", &ReplyWithLongLong},
      {"RedisModule_ReplyWithBool", &ReplyWithBool},
      {"RedisModule_ReplyWithArray", &ReplyWithArray},
      {"RedisModule_ReplyWithMap", &ReplyWithMap},
      {"RedisModule_ReplyWithStringBuffer", &ReplyWithStringBuffer},
      {"RedisModule_ReplyWithNull", &ReplyWithNull},
      {"RedisModule_ReplicateVerbatim", &ReplicateVerbatim},
      {"RedisModule_GetContextFlags", &GetContextFlags},
      {"RedisModule_SaveUnsigned", &SaveUnsigned},
      {"RedisModule_LoadUnsigned", &LoadUnsigned},
      {"RedisModule_SaveStringBuffer", &SaveStringBuffer},
      {"RedisModule_LoadStringBuffer", &LoadStringBuffer},
      {"RedisModule_EmitAOF", &EmitAOF},
      {"RedisModule_LogIOError", &LogIOError},
      {"RedisModule_Log", &Log},
      {"RedisModule_DigestAddStringBuffer", &DigestAddStringBuffer},
      {"RedisModule_DigestEndSequence", &DigestEndSequence},
      {"RedisModule_Free", &Free},
  };
  for (const Entry& entry : entries) {
    if (get_api(entry.name, entry.slot) != kOk) return kErr;
  }
  SetModuleAttribs(ctx, name, version, kApiVersion1);
  return kOk;
}

}  // namespace rm
