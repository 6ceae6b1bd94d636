// redis/src/commands.h: registers the CF.* commands (commands.cpp).
#pragma once

#include "module_api.h"

namespace cuckoo_redis {

// Creates every CF.* command; false if the server refused one (a name already taken, say).
bool register_commands(rm::Ctx* ctx);

}  // namespace cuckoo_redis
