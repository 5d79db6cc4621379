// A qemu-user TCG plugin that counts the guest instructions a program runs
// between two markers, for tuning ARM64 kernels on a machine without ARM
// hardware (tools/tune.sh --targets arm64): instruction counts under qemu
// are deterministic, where qemu's run times say nothing about an ARM core.
//
//   qemu-aarch64 -plugin libonnxpool_qemu_instruction_count.so,out=FILE prog
//
// The guest marks a region with two syscalls that the kernel ignores the
// arguments of (the tuning runner uses getpid): (kMarker, 0, id) opens region
// `id`, (kMarker, 1, id) closes it, and the plugin appends "id count" to
// FILE. Counting is by translation block, at its entry: a block cut short by
// a fault or a syscall counts whole, the same few instructions for every
// candidate.
//
// Debian's qemu-user (7.2) carries the plugin loader but no plugin header, so
// the few entry points used here are declared below, as qemu's plugin API
// version 1 defines them (a C ABI qemu keeps stable within a version).
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" {

using qemu_plugin_id_t = uint64_t;
struct qemu_plugin_tb;
struct qemu_info_t;

using TbTranslated = void (*)(qemu_plugin_id_t, qemu_plugin_tb*);
using Syscall = void (*)(qemu_plugin_id_t, unsigned int vcpu, int64_t number, uint64_t a1, uint64_t a2,
                         uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
using AtExit = void (*)(qemu_plugin_id_t, void* userdata);
constexpr int kInlineAddU64 = 0;  // enum qemu_plugin_op's first value

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, TbTranslated cb);
size_t qemu_plugin_tb_n_insns(const qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_exec_inline(qemu_plugin_tb* tb, int op, void* ptr, uint64_t imm);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, Syscall cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, AtExit cb, void* userdata);

__attribute__((visibility("default"))) extern const int qemu_plugin_version;
__attribute__((visibility("default"))) const int qemu_plugin_version = 1;

}  // extern "C"

namespace {

// In the first argument: a value no program passes to getpid by chance.
constexpr uint64_t kMarker = 0x6f6e6e78706f6f49ull;

// One counter for every guest thread: the runner counts at one thread, and
// the idle pool threads (if any) run no instructions while they wait.
uint64_t instructions = 0;
uint64_t region_start = 0;
uint64_t open_region = UINT64_MAX;
FILE* out = nullptr;

void on_translate(qemu_plugin_id_t, qemu_plugin_tb* tb) {
  qemu_plugin_register_vcpu_tb_exec_inline(tb, kInlineAddU64, &instructions, qemu_plugin_tb_n_insns(tb));
}

void on_syscall(qemu_plugin_id_t, unsigned int, int64_t, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t, uint64_t,
                uint64_t, uint64_t, uint64_t) {
  if (a1 != kMarker) return;
  if (a2 == 0) {
    open_region = a3;
    region_start = instructions;
  } else if (a2 == 1 && open_region == a3) {
    std::fprintf(out, "%" PRIu64 " %" PRIu64 "\n", a3, instructions - region_start);
    std::fflush(out);
    open_region = UINT64_MAX;
  }
}

void on_exit(qemu_plugin_id_t, void*) {
  if (out != nullptr) std::fclose(out);
  out = nullptr;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t*,
                                                                          int argc, char** argv) {
  const char* path = nullptr;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "out=", 4) == 0) path = argv[i] + 4;
  }
  if (path == nullptr) {
    std::fprintf(stderr, "onnxpool instruction count plugin: needs out=FILE\n");
    return -1;
  }
  out = std::fopen(path, "w");
  if (out == nullptr) {
    std::fprintf(stderr, "onnxpool instruction count plugin: cannot write %s\n", path);
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
  qemu_plugin_register_atexit_cb(id, on_exit, nullptr);
  return 0;
}
