// musket-cc: clang-14's C front end as one statically linked program.
//
// Musket compiles every C program to LLVM IR with clang-14. Most of the
// time of a small compilation is clang starting: the dynamic loader
// relocates libLLVM-14.so and libclang-cpp.so (about 600 000 relocations)
// before main runs. This program is built from the same clang and LLVM
// release, from their static libraries, into a non-PIE static executable
// that has no dynamic relocations at all.
//
//   musket-cc ARGS...   does what `clang-14 ARGS...` does
//   musket-cc --musket-session
//                       runs several such compilations in one process
//                       (see session below): Musket's two compile steps
//                       then start one process, not two
//
// It is clang's driver library (the same argument parsing, tool chain,
// header search and -cc1 command line as clang-14's), with the -cc1 job
// run in this process through the compiler library, as clang-14 itself
// does (its cc1 is in-process). Its output, diagnostics and exit status
// are clang-14's.
//
// What it does not do, it refuses before compiling: exit status 125 and
// nothing useful on stdout; the caller (internal/cfront) then runs
// clang-14 itself. Refused: response files (@FILE), -cc1 given directly,
// clang-cl mode, -fno-integrated-cc1, the driver's debugging environment
// variables (CCC_OVERRIDE_OPTIONS, CC_PRINT_OPTIONS, ...), jobs other than
// a -cc1 compilation (an assembler or a linker), targets other than x86
// (only the X86 back end is linked in) and -mllvm options it does not
// know (they may be another back end's).
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Stack.h"
#include "clang/CodeGen/ObjectFilePCHContainerOperations.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendDiagnostic.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/CodeGen/BackendUtil.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/StaticAnalyzer/Core/AnalyzerOptions.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueSymbolTable.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassPlugin.h"

// getPollyPluginInfo stands for Polly's: clang's optimisation pipeline
// registers the plugin of every extension its LLVM was built with
// (Debian's clang-14 has Polly), and Polly adds passes to the pipeline
// only when -mllvm -polly turns it on. Defining it here keeps Polly's
// libraries out of the link, and with them their static initializers
// (about a third of this program's start: they register Polly's legacy
// passes and options). Polly's options are then unknown here: a
// compilation given -mllvm -polly... is refused (see compile), and
// clang-14 runs it, with Polly.
llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly", LLVM_VERSION_STRING, [](llvm::PassBuilder &) {}};
}

namespace {

// hugeHeap runs before every other static initializer (priority 101):
// it makes the heap grow in one step of 64 MB (address space only), with
// transparent huge pages asked for (where the system's setting is
// "madvise"), and keeps large blocks in it. A first touch of a 4 KB page
// costs a page fault, and in virtual machines that is tens of
// microseconds: a compilation touches about 2 000 of them, half in the
// heap. A huge page is one fault for 2 MB. Nothing changes but where
// memory comes from.
__attribute__((constructor(101))) void hugeHeap() {
  const size_t pad = size_t(64) << 20, huge = size_t(2) << 20;
  mallopt(M_MMAP_THRESHOLD, int(pad / 2));
  mallopt(M_TOP_PAD, int(pad));
  mallopt(M_TRIM_THRESHOLD, int(pad * 2)); // a session frees and allocates again
  // The heap starts where the program's data ends, at a random place
  // within a huge page: it is moved to 4 KB before the next huge page,
  // or the memory before that boundary (up to 2 MB, the first a
  // compilation uses: ~220 page faults) would come in 4 KB pages. The
  // 4 KB page takes what malloc writes before madvise below (a page
  // written before it would keep its huge page from being one). What is
  // skipped is never touched.
  const uintptr_t page = 4096;
  uintptr_t at = reinterpret_cast<uintptr_t>(sbrk(0));
  if (at != uintptr_t(-1)) {
    uintptr_t to = ((at + page + huge - 1) & ~(huge - 1)) - page;
    if (to > at)
      sbrk(intptr_t(to - at));
  }
  char *start = static_cast<char *>(sbrk(0));
  void *volatile grow = std::malloc(pad / 4); // the heap now reaches past start + pad
  std::free(grow);
  char *end = static_cast<char *>(sbrk(0));
  if (start == reinterpret_cast<char *>(-1) || end <= start)
    return;
  uintptr_t b = (reinterpret_cast<uintptr_t>(start) + huge - 1) & ~(huge - 1);
  uintptr_t e = reinterpret_cast<uintptr_t>(end) & ~(huge - 1);
  if (b < e)
    madvise(reinterpret_cast<void *>(b), e - b, MADV_HUGEPAGE);
}

// The bounds of this program's hot code (see build.sh): its link puts
// musketHotStart, the functions a compilation runs (hot-functions.txt)
// and musketHotEnd together, in that order.
extern "C" char __bss_start[], _end[];
extern "C" __attribute__((noinline, used, section(".text.musket_hot_start"))) void musketHotStart() {}
extern "C" __attribute__((noinline, used, section(".text.musket_hot_end"))) void musketHotEnd() {}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

// mapHot maps the pages a compilation will touch, one system call each,
// instead of a page fault per 16 pages of code (when the page cache
// holds this file in 4 KB pages) and per page of static data: the hot
// code, when build.sh linked it together (MUSKET_HOT_ORDER; at most
// 32 MB), and the zeroed static data (80 pages, nearly all written).
// A kernel without MADV_POPULATE_* (before 5.14) refuses, and the pages
// fault in as they are used. Only when pages are mapped changes.
__attribute__((constructor(101))) void mapHot() {
  const uintptr_t page = 4096;
  uintptr_t b = reinterpret_cast<uintptr_t>(&musketHotStart) & ~(page - 1);
  uintptr_t e = (reinterpret_cast<uintptr_t>(&musketHotEnd) + page - 1) & ~(page - 1);
#ifdef MUSKET_HOT_ORDER
  if (b < e && e - b <= (uintptr_t(32) << 20))
    madvise(reinterpret_cast<void *>(b), e - b, MADV_POPULATE_READ);
#endif
  b = reinterpret_cast<uintptr_t>(__bss_start) & ~(page - 1);
  e = (reinterpret_cast<uintptr_t>(_end) + page - 1) & ~(page - 1);
  if (b < e && e - b <= (uintptr_t(4) << 20))
    madvise(reinterpret_cast<void *>(b), e - b, MADV_POPULATE_WRITE);
}

} // namespace

namespace {

// Refused is the exit status that asks the caller to run clang-14.
const int Refused = 125;

// The compiler this program stands for, found in PATH as clang-14 is.
const char *const ClangName = "clang-14";

// clangPath is the real path of the clang-14 executable: the driver
// derives from it the resource folder (its own headers) and names its
// jobs after it, as clang-14 does from /proc/self/exe.
std::string clangPath;

// inSession is set in a session (see session): each compilation then
// frees its memory when it ends, as clang does with -no-disable-free,
// instead of leaving it to the end of the process (clang's driver gives
// the compiler -disable-free), so that a long session stays small and
// reuses its pages. What is freed is freed after the output is written.
bool inSession = false;

// mainAddr is an address in this program (for the resource folder).
void *mainAddr() { return reinterpret_cast<void *>(&mainAddr); }

// onFatal reports a back-end failure through the compilation's
// diagnostics and stops, as clang's cc1 does (status 70).
void onFatal(void *data, const char *msg, bool genCrashDiag) {
  auto &diags = *static_cast<clang::DiagnosticsEngine *>(data);
  diags.Report(clang::diag::err_fe_error_backend) << msg;
  llvm::sys::RunInterruptHandlers();
  std::exit(genCrashDiag ? 70 : 1);
}

// isX86 says whether a target triple's architecture is one of x86's.
bool isX86(llvm::StringRef triple) {
  llvm::StringRef arch = triple.split('-').first;
  return arch == "x86_64" || arch == "i386" || arch == "i486" ||
         arch == "i586" || arch == "i686" || arch == "x86_64h";
}

// The race-preserving compilation in one step (Musket's
// internal/cfront/racepipe.go says why it exists and what it does). A
// request that starts with --musket-race-pipe=MODE compiles C to the
// front end's IR (its arguments must say -disable-llvm-passes), then,
// in this process and on the module in memory: the guard (racepipe.go's
// raceGuard), the -O1 pipeline as clang runs it on IR (the same code
// generation options, passes turned back on), the unguard (raceUnguard),
// and the IR printed on standard output. Musket otherwise prints the
// front end's IR, rewrites its text, and has it parsed and optimised by
// a second compilation; the rewriting here is the same, instruction by
// instruction, taken in the order of the text. MODE is race-free (the
// optimised form kept) or as-written (plain accesses to shared memory
// made volatile: aswritten.go). The names the lowering treats by name
// come with the request (--musket-keep=NAME,..., --musket-keep-prefix=P,
// --musket-noinline-prefix=P), so that Musket's list stays the only one.
struct RacePipe {
  bool on = false;
  bool asWritten = false;
  std::set<std::string> keepNames;
  std::vector<std::string> keepPrefixes, noinlinePrefixes;
} racePipe;

const char *const KeepFunc = "__musket_keep_load";
const char *const SameFunc = "__musket_same_value";

bool hasPrefixIn(llvm::StringRef s, const std::vector<std::string> &ps) {
  for (const std::string &p : ps)
    if (s.startswith(p))
      return true;
  return false;
}

// instructionsOf are a function's instructions in the order of its text.
std::vector<llvm::Instruction *> instructionsOf(llvm::Function &f) {
  std::vector<llvm::Instruction *> out;
  for (llvm::BasicBlock &b : f)
    for (llvm::Instruction &i : b)
      out.push_back(&i);
  return out;
}

bool isLifetime(const llvm::User *u) {
  auto *ii = llvm::dyn_cast<llvm::IntrinsicInst>(u);
  return ii && (ii->getIntrinsicID() == llvm::Intrinsic::lifetime_start ||
                ii->getIntrinsicID() == llvm::Intrinsic::lifetime_end);
}

// localAllocas: racepipe.go's localAllocas (the allocas whose address
// appears only as the address of loads and stores that are not atomic,
// in llvm.dbg.declare, and in bitcasts used only by lifetime markers).
std::set<const llvm::Value *> localAllocas(const std::vector<llvm::Instruction *> &body) {
  std::set<const llvm::Value *> local;
  for (llvm::Instruction *i : body) {
    auto *a = llvm::dyn_cast<llvm::AllocaInst>(i);
    if (!a)
      continue;
    bool ok = true;
    for (const llvm::Use &u : a->uses()) {
      const llvm::User *user = u.getUser();
      if (auto *l = llvm::dyn_cast<llvm::LoadInst>(user)) {
        ok = ok && !l->isAtomic();
      } else if (auto *s = llvm::dyn_cast<llvm::StoreInst>(user)) {
        ok = ok && !s->isAtomic() && u.getOperandNo() == s->getPointerOperandIndex();
      } else if (auto *c = llvm::dyn_cast<llvm::BitCastInst>(user)) {
        ok = ok && !c->isUsedByMetadata();
        for (const llvm::User *cu : c->users())
          ok = ok && isLifetime(cu);
      } else {
        ok = false;
      }
    }
    if (ok)
      local.insert(a);
  }
  return local;
}

// intrinsicLine: a call of the intrinsics privateAddrs lets private
// pointers be given to.
bool intrinsicLine(const llvm::Instruction *i) {
  auto *c = llvm::dyn_cast<llvm::CallBase>(i);
  if (!c)
    return false;
  const llvm::Function *f = c->getCalledFunction();
  if (!f)
    return false;
  llvm::StringRef n = f->getName();
  return n.startswith("llvm.lifetime.") || n.startswith("llvm.dbg.") || n.startswith("llvm.memcpy.") ||
         n.startswith("llvm.memmove.") || n.startswith("llvm.memset.");
}

// privateAddrs: aswritten.go's privateAddrs.
std::set<const llvm::Value *> privateAddrs(const std::vector<llvm::Instruction *> &body) {
  std::map<const llvm::Value *, const llvm::Value *> root;
  for (llvm::Instruction *i : body)
    if (llvm::isa<llvm::AllocaInst>(i))
      root[i] = i;
  std::set<const llvm::Value *> priv;
  if (root.empty())
    return priv;
  auto derives = [](const llvm::Instruction *i) {
    return llvm::isa<llvm::BitCastInst>(i) || llvm::isa<llvm::GetElementPtrInst>(i);
  };
  for (llvm::Instruction *i : body) {
    if (!derives(i))
      continue;
    for (const llvm::Value *op : i->operands()) {
      auto r = root.find(op);
      if (r != root.end()) {
        root[i] = r->second;
        break;
      }
    }
  }
  std::set<const llvm::Value *> escaped;
  for (llvm::Instruction *i : body) {
    if (llvm::isa<llvm::AllocaInst>(i))
      continue;
    const llvm::Value *addr = nullptr;
    if (root.count(i) && derives(i)) {
      for (const llvm::Value *op : i->operands())
        if (root.count(op)) {
          addr = op;
          break;
        }
    } else if (auto *l = llvm::dyn_cast<llvm::LoadInst>(i)) {
      if (!l->isAtomic())
        addr = l->getPointerOperand();
    } else if (auto *s = llvm::dyn_cast<llvm::StoreInst>(i)) {
      if (!s->isAtomic())
        addr = s->getPointerOperand();
    } else if (intrinsicLine(i)) {
      continue;
    }
    bool seen = false;
    for (const llvm::Value *op : i->operands()) {
      auto r = root.find(op);
      if (r == root.end())
        continue;
      if (op == addr && !seen) {
        seen = true;
        continue;
      }
      escaped.insert(r->second);
    }
  }
  for (const auto &r : root)
    if (!escaped.count(r.second))
      priv.insert(r.first);
  return priv;
}

// pureOp: racepipe.go's pureOp.
bool pureOp(const llvm::Instruction *i) {
  switch (i->getOpcode()) {
  case llvm::Instruction::Add: case llvm::Instruction::Sub: case llvm::Instruction::Mul:
  case llvm::Instruction::UDiv: case llvm::Instruction::SDiv: case llvm::Instruction::URem:
  case llvm::Instruction::SRem: case llvm::Instruction::And: case llvm::Instruction::Or:
  case llvm::Instruction::Xor: case llvm::Instruction::Shl: case llvm::Instruction::LShr:
  case llvm::Instruction::AShr: case llvm::Instruction::Trunc: case llvm::Instruction::ZExt:
  case llvm::Instruction::SExt: case llvm::Instruction::BitCast: case llvm::Instruction::Select:
  case llvm::Instruction::Freeze: case llvm::Instruction::PHI:
    return true;
  default:
    return false;
  }
}

// readOnly: racepipe.go's readOnlyGlobals for one internal global
// variable (used nowhere but as the address of loads that are not
// atomic).
bool readOnly(llvm::GlobalVariable &g) {
  g.removeDeadConstantUsers();
  for (const llvm::Use &u : g.uses()) {
    auto *l = llvm::dyn_cast<llvm::LoadInst>(u.getUser());
    if (!l || l->isAtomic())
      return false;
  }
  return true;
}

llvm::AttributeList keepAttrs(llvm::LLVMContext &ctx) {
  llvm::AttrBuilder b(ctx);
  b.addAttribute(llvm::Attribute::InaccessibleMemOnly);
  b.addAttribute(llvm::Attribute::NoFree);
  b.addAttribute(llvm::Attribute::NoSync);
  b.addAttribute(llvm::Attribute::NoUnwind);
  b.addAttribute(llvm::Attribute::WillReturn);
  return llvm::AttributeList::get(ctx, llvm::AttributeList::FunctionIndex, b);
}

// The counter a symbol table numbers clashing names with (the NAME1,
// NAME2, ... of a name given twice) is private to LLVM's
// ValueSymbolTable. The two-step compilation parses the guarded IR into
// new tables whose counters start at 0; the front end left this
// module's counters further on (its own clashing names: call1, call2,
// ...), so the optimiser's new names would get other numbers than in
// the two steps. restartNames sets the counters back to 0, through the
// member pointer that an explicit instantiation may name (access
// checking does not apply to the arguments of explicit instantiations).
struct LastUniqueTag {
  using type = uint32_t llvm::ValueSymbolTable::*;
  friend type lastUnique(LastUniqueTag);
};
template <typename Tag, typename Tag::type M> struct Expose {
  friend typename Tag::type lastUnique(Tag) { return M; }
};
template struct Expose<LastUniqueTag, &llvm::ValueSymbolTable::LastUnique>;

void restartNames(llvm::Module &m) {
  m.getValueSymbolTable().*lastUnique(LastUniqueTag()) = 0;
  for (llvm::Function &f : m)
    if (llvm::ValueSymbolTable *t = f.getValueSymbolTable())
      t->*lastUnique(LastUniqueTag()) = 0;
}

// raceGuard: racepipe.go's raceGuard on the module.
void raceGuard(llvm::Module &m, bool asWritten) {
  llvm::LLVMContext &ctx = m.getContext();
  for (llvm::GlobalVariable &g : m.globals())
    if (g.hasInternalLinkage() && !g.isConstant() && !readOnly(g)) {
      g.setLinkage(llvm::GlobalValue::ExternalLinkage);
      g.setDSOLocal(true);
    }
  llvm::Function *keep = nullptr;
  std::map<llvm::Type *, llvm::Function *> same;
  unsigned sames = 0;
  auto keepFn = [&]() {
    if (!keep) {
      keep = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {}, true),
                                    llvm::GlobalValue::ExternalLinkage, KeepFunc, m);
      keep->setAttributes(keepAttrs(ctx));
    }
    return keep;
  };
  std::vector<llvm::Function *> defined;
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      defined.push_back(&f);
  for (llvm::Function *f : defined) {
    llvm::StringRef name = f->getName();
    if (racePipe.keepNames.count(name.str()) || hasPrefixIn(name, racePipe.keepPrefixes)) {
      f->addFnAttr(llvm::Attribute::NoInline);
      f->addFnAttr(llvm::Attribute::OptimizeNone);
    } else if (hasPrefixIn(name, racePipe.noinlinePrefixes)) {
      f->addFnAttr(llvm::Attribute::NoInline);
    }
    std::vector<llvm::Instruction *> body = instructionsOf(*f);
    std::set<const llvm::Value *> allocas = localAllocas(body), priv;
    if (asWritten)
      priv = privateAddrs(body);
    std::map<const llvm::Value *, const llvm::Value *> loadedFrom;
    std::map<const llvm::Value *, std::set<const llvm::Value *>> derived, held;
    for (llvm::Instruction *i : body) {
      if (pureOp(i)) {
        std::set<const llvm::Value *> d;
        for (const llvm::Value *op : i->operands()) {
          auto l = loadedFrom.find(op);
          if (l != loadedFrom.end())
            d.insert(l->second);
          auto dv = derived.find(op);
          if (dv != derived.end())
            d.insert(dv->second.begin(), dv->second.end());
        }
        if (!d.empty())
          derived[i].insert(d.begin(), d.end());
      }
      if (auto *s = llvm::dyn_cast<llvm::StoreInst>(i)) {
        const llvm::Value *v = s->getValueOperand(), *addr = s->getPointerOperand();
        if (!s->isAtomic() && allocas.count(addr)) {
          auto &h = held[addr];
          auto l = loadedFrom.find(v);
          if (l != loadedFrom.end())
            h.insert(l->second);
          auto dv = derived.find(v);
          if (dv != derived.end())
            h.insert(dv->second.begin(), dv->second.end());
        } else if (!s->isAtomic() && !s->isVolatile() &&
                   ((loadedFrom.count(v) && loadedFrom[v] == addr) ||
                    (derived.count(v) && derived[v].count(addr)))) {
          llvm::Type *ty = s->getValueOperand()->getType();
          llvm::Function *&sf = same[ty];
          if (!sf) {
            sf = llvm::Function::Create(llvm::FunctionType::get(ty, {}, true), llvm::GlobalValue::ExternalLinkage,
                                        std::string(SameFunc) + "." + std::to_string(same.size() - 1), m);
            sf->setAttributes(keepAttrs(ctx));
            keepFn(); // declared whenever something is guarded, as racepipe.go does
          }
          auto *c = llvm::CallInst::Create(sf->getFunctionType(), sf, {s->getValueOperand()},
                                           "musket.same." + std::to_string(sames++), s);
          s->setOperand(0, c);
        }
        if (asWritten && !s->isAtomic() && !s->isVolatile() && !priv.count(s->getPointerOperand()))
          s->setVolatile(true);
        continue;
      }
      auto *l = llvm::dyn_cast<llvm::LoadInst>(i);
      if (!l || l->isAtomic() || l->isVolatile())
        continue;
      const llvm::Value *ptr = l->getPointerOperand();
      loadedFrom[l] = ptr;
      auto h = held.find(ptr);
      if (h != held.end() && !h->second.empty())
        derived[l].insert(h->second.begin(), h->second.end());
      if (asWritten && !priv.count(ptr)) {
        l->setVolatile(true);
        continue;
      }
      if (allocas.count(ptr))
        continue;
      llvm::Function *k = keepFn();
      llvm::CallInst::Create(k->getFunctionType(), k, {l}, "", l->getNextNode());
    }
  }
}

// raceUnguard: racepipe.go's raceUnguard on the module.
void raceUnguard(llvm::Module &m) {
  std::vector<llvm::Function *> fs;
  for (llvm::Function &f : m)
    if (f.getName() == KeepFunc || f.getName().startswith(std::string(SameFunc) + "."))
      fs.push_back(&f);
  for (llvm::Function *f : fs) {
    bool isKeep = f->getName() == KeepFunc;
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *u : f->users())
      if (auto *c = llvm::dyn_cast<llvm::CallInst>(u))
        calls.push_back(c);
    for (llvm::CallInst *c : calls) {
      if (!isKeep && c->arg_size() > 0)
        c->replaceAllUsesWith(c->getArgOperand(0));
      c->eraseFromParent();
    }
    if (f->use_empty())
      f->eraseFromParent();
  }
}

// racePipeCompile runs the compilation ci describes as racePipe says.
int racePipeCompile(clang::CompilerInstance &ci) {
  auto &cg = ci.getCodeGenOpts();
  if (!cg.DisableLLVMPasses || ci.getFrontendOpts().OutputFile != "-")
    return Refused;
  llvm::LLVMContext ctx;
  ctx.setDiscardValueNames(cg.DiscardValueNames);
  auto act = std::make_unique<clang::EmitLLVMOnlyAction>(&ctx);
  if (!ci.ExecuteAction(*act))
    return 1;
  std::unique_ptr<llvm::Module> m = act->takeModule();
  if (!m)
    return 1;
  raceGuard(*m, racePipe.asWritten);
  std::string bad;
  llvm::raw_string_ostream badOS(bad);
  if (llvm::verifyModule(*m, &badOS)) {
    llvm::errs() << "musket-cc: the race-guarded IR is not valid: " << badOS.str() << "\n";
    return 1;
  }
  restartNames(*m);
  cg.DisableLLVMPasses = false;
  clang::EmitBackendOutput(ci.getDiagnostics(), ci.getHeaderSearchOpts(), cg, ci.getTargetOpts(),
                           ci.getLangOpts(), m->getDataLayoutStr(), m.get(), clang::Backend_EmitNothing,
                           nullptr);
  if (ci.getDiagnostics().hasErrorOccurred())
    return 1;
  raceUnguard(*m);
  m->print(llvm::outs(), nullptr, cg.EmitLLVMUseLists);
  llvm::outs().flush();
  return 0;
}

// compile runs the compilation ci describes, which must be C to LLVM IR:
// the -mllvm options, then clang's EmitLLVMAction. Anything else (the
// front end's help, plugins, other actions, time traces) is refused.
int compile(clang::CompilerInstance &ci) {
  const auto &fe = ci.getFrontendOpts();
  const auto &an = *ci.getAnalyzerOpts();
  if (fe.ProgramAction != clang::frontend::EmitLLVM || fe.ShowHelp || fe.ShowVersion ||
      fe.PrintSupportedCPUs || fe.TimeTrace || !fe.Plugins.empty() ||
      !fe.ActionName.empty() || !fe.AddPluginActions.empty() ||
      fe.ARCMTAction != clang::FrontendOptions::ARCMT_None || fe.ObjCMTAction != 0 ||
      !fe.ASTMergeFiles.empty() || fe.FixWhatYouCan || fe.FixAndRecompile ||
      !fe.FixItSuffix.empty() || an.ShowCheckerHelp || an.ShowCheckerHelpAlpha ||
      an.ShowCheckerHelpDeveloper || an.ShowCheckerOptionList ||
      an.ShowEnabledCheckerList || an.ShowConfigOptionsList)
    return Refused;
  if (!fe.LLVMArgs.empty()) {
    // The options of LLVM's own libraries, parsed as clang parses them
    // (the name heads LLVM's messages about them).
    std::vector<const char *> llvmArgs{"clang (LLVM option parsing)"};
    for (const std::string &a : fe.LLVMArgs)
      llvmArgs.push_back(a.c_str());
    llvmArgs.push_back(nullptr);
    // An option this program does not know may be one of a back end
    // that is not linked in (clang-14 has them all): clang-14 decides.
    std::string parseErrors;
    llvm::raw_string_ostream errs(parseErrors);
    if (!llvm::cl::ParseCommandLineOptions(int(llvmArgs.size() - 1), llvmArgs.data(), "", &errs))
      return Refused;
  }
  if (ci.getDiagnostics().hasErrorOccurred())
    return 1;
  if (racePipe.on)
    return racePipeCompile(ci);
  auto act = std::make_unique<clang::EmitLLVMAction>();
  bool ok = ci.ExecuteAction(*act);
  if (fe.DisableFree)
    llvm::BuryPointer(std::move(act));
  return ok ? 0 : 1;
}

// runCC1 compiles a -cc1 command line in this process: the driver calls
// it for each job it would otherwise start as a process.
int runCC1(llvm::SmallVectorImpl<const char *> &argv) {
  // The driver parsed options too; the compiler's own parse starts anew.
  llvm::cl::ResetAllOptionOccurrences();
  if (argv.size() < 2 || llvm::StringRef(argv[1]) != "-cc1")
    return Refused;
  for (size_t i = 2; i + 1 < argv.size(); i++)
    if (llvm::StringRef(argv[i]) == "-triple" && !isX86(argv[i + 1]))
      return Refused;
  llvm::ArrayRef<const char *> args = llvm::makeArrayRef(argv).slice(2);
  const char *argv0 = argv[0];

  auto ci = std::make_unique<clang::CompilerInstance>();
  auto pch = ci->getPCHContainerOperations();
  pch->registerWriter(std::make_unique<clang::ObjectFilePCHContainerWriter>());
  pch->registerReader(std::make_unique<clang::ObjectFilePCHContainerReader>());

  // Messages about the arguments wait until the real diagnostics exist.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts(new clang::DiagnosticOptions());
  auto *buffered = new clang::TextDiagnosticBuffer;
  clang::DiagnosticsEngine early(ids, &*opts, buffered);
  bool ok = clang::CompilerInvocation::CreateFromArgs(ci->getInvocation(), args, early, argv0);
  if (inSession) {
    ci->getFrontendOpts().DisableFree = false;
    ci->getCodeGenOpts().DisableFree = false;
  }

  auto &hs = ci->getHeaderSearchOpts();
  if (hs.UseBuiltinIncludes && hs.ResourceDir.empty())
    hs.ResourceDir = clang::CompilerInvocation::GetResourcesPath(argv0, mainAddr());
  ci->createDiagnostics();
  if (!ci->hasDiagnostics())
    return 1;
  llvm::install_fatal_error_handler(onFatal, &ci->getDiagnostics());
  buffered->FlushDiagnostics(ci->getDiagnostics());
  if (!ok) {
    ci->getDiagnosticClient().finish();
    return 1;
  }
  int status = compile(*ci);
  llvm::TimerGroup::clearAll();
  llvm::remove_fatal_error_handler();
  if (ci->getFrontendOpts().DisableFree) {
    llvm::BuryPointer(std::move(ci));
  }
  return status;
}

// findClang sets clangPath; false when clang-14 is not in PATH.
bool findClang(std::string &installedDir) {
  auto found = llvm::sys::findProgramByName(ClangName);
  if (!found)
    return false;
  llvm::SmallString<256> p(*found);
  llvm::sys::fs::make_absolute(p);
  installedDir = std::string(llvm::sys::path::parent_path(p));
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(p, real))
    return false;
  clangPath = std::string(real);
  return true;
}

} // namespace

namespace {

// driverMain does what `clang-14 ARGS...` does (argv[0] is ignored).
int driverMain(int argc, const char **argv) {
  // The race pipe's arguments come first (see RacePipe).
  racePipe = RacePipe();
  while (argc > 1 && llvm::StringRef(argv[1]).startswith("--musket-")) {
    llvm::StringRef a(argv[1]), v;
    if (a == "--musket-race-pipe=race-free" || a == "--musket-race-pipe=as-written") {
      racePipe.on = true;
      racePipe.asWritten = a.endswith("as-written");
    } else if (a.consume_front("--musket-keep=")) {
      llvm::SmallVector<llvm::StringRef, 64> names;
      a.split(names, ',', -1, false);
      for (llvm::StringRef n : names)
        racePipe.keepNames.insert(n.str());
    } else if (a.consume_front("--musket-keep-prefix=")) {
      racePipe.keepPrefixes.push_back(a.str());
    } else if (a.consume_front("--musket-noinline-prefix=")) {
      racePipe.noinlinePrefixes.push_back(a.str());
    } else {
      llvm::errs() << "musket-cc: unknown option " << a << "\n";
      return 1;
    }
    argv[1] = argv[0];
    argv++;
    argc--;
  }
  // The driver's debugging variables: left to clang-14.
  for (const char *v : {"CCC_OVERRIDE_OPTIONS", "CC_PRINT_OPTIONS", "CC_PRINT_HEADERS",
                        "CC_LOG_DIAGNOSTICS", "CC_PRINT_PROC_STAT", "FORCE_CLANG_DIAGNOSTICS_CRASH"})
    if (std::getenv(v))
      return Refused;

  // The command line clang-14 would see: its name, then ours.
  llvm::SmallVector<const char *, 64> args;
  args.push_back(ClangName);
  for (int i = 1; i < argc; i++) {
    llvm::StringRef a(argv[i]);
    if (a.startswith("@") || a.startswith("-cc1") || a.startswith("--driver-mode") ||
        a == "-fno-integrated-cc1" || a == "-no-canonical-prefixes" ||
        a.startswith("--rsp-quoting"))
      return Refused;
    args.push_back(argv[i]);
  }
  std::string installedDir;
  if (!findClang(installedDir))
    return Refused;

  // Only the X86 back end is linked in (see runCC1).
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeX86AsmParser();

  // The driver's diagnostics, set from the command line as clang's are.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> dopts(new clang::DiagnosticOptions());
  {
    unsigned missingIndex = 0, missingCount = 0;
    llvm::opt::InputArgList parsed = clang::driver::getDriverOptTable().ParseArgs(
        llvm::makeArrayRef(args).slice(1), missingIndex, missingCount);
    (void)clang::ParseDiagnosticArgs(*dopts, parsed);
  }
  if (!dopts->DiagnosticSerializationFile.empty())
    return Refused;
  auto *printer = new clang::TextDiagnosticPrinter(llvm::errs(), &*dopts);
  printer->setPrefix(std::string(llvm::sys::path::stem(clangPath)));
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
  clang::DiagnosticsEngine diags(ids, &*dopts, printer);
  clang::ProcessWarningOptions(diags, *dopts, /*ReportDiags=*/false);

  clang::driver::Driver driver(clangPath, llvm::sys::getDefaultTargetTriple(), diags);
  driver.setInstalledDir(installedDir);
  auto nameParts = clang::driver::ToolChain::getTargetAndModeFromProgramName(ClangName);
  if (nameParts.DriverMode || nameParts.TargetIsValid)
    return Refused;
  driver.setTargetAndMode(nameParts);
  driver.CC1Main = &runCC1;
  // The headers of the clang release this program was built from must
  // be those of the installed clang-14.
  if (!llvm::sys::fs::is_directory(driver.ResourceDir))
    return Refused;

  std::unique_ptr<clang::driver::Compilation> c(driver.BuildCompilation(args));
  int status = 1;
  if (c && !c->containsError()) {
    for (const auto &job : c->getJobs()) {
      const auto &a = job.getArguments();
      if (a.empty() || llvm::StringRef(a[0]) != "-cc1")
        return Refused;
    }
    llvm::SmallVector<std::pair<int, const clang::driver::Command *>, 4> failing;
    status = driver.ExecuteCompilation(*c, failing);
    for (const auto &f : failing) {
      if (f.first == Refused)
        return Refused;
      if (status == 0)
        status = f.first;
    }
  }
  diags.getClient()->finish();
  llvm::TimerGroup::printAll(llvm::errs());
  llvm::TimerGroup::clearAll();
  return status;
}

// captureFile is an anonymous file that takes a compilation's standard
// output or error; -1 when none can be made.
int captureFile(const char *name) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) {
    std::FILE *f = std::tmpfile();
    fd = f ? dup(fileno(f)) : -1;
    if (f)
      std::fclose(f);
  }
  return fd;
}

// readAll reads the file fd from its start.
bool readAll(int fd, std::string &out) {
  if (lseek(fd, 0, SEEK_SET) != 0)
    return false;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    if (n == 0)
      return true;
    out.append(buf, size_t(n));
  }
}

// writeAll writes data to fd.
bool writeAll(int fd, const std::string &data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += size_t(n);
  }
  return true;
}

// nextRequest takes the first complete request out of in (see
// session) into args; false when in holds none yet.
bool nextRequest(std::string &in, std::vector<std::string> &args) {
  args.clear();
  size_t i = 0;
  for (;;) {
    size_t j = in.find('\0', i);
    if (j == std::string::npos)
      return false;
    if (j == i)
      break;
    args.push_back(in.substr(i, j - i));
    i = j + 1;
  }
  in.erase(0, i + 1);
  return true;
}

// answer runs one compilation with its standard output and error taken
// into files and writes the answer to out (see session); err is the
// session's standard error. False when it cannot.
bool answer(const std::vector<std::string> &args, int out, int err) {
  std::vector<const char *> argv{"musket-cc"};
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  argv.push_back(nullptr);
  int fo = captureFile("musket-cc-out"), fe = captureFile("musket-cc-err");
  if (fo < 0 || fe < 0 || dup2(fo, STDOUT_FILENO) < 0 || dup2(fe, STDERR_FILENO) < 0)
    return false;
  int status = driverMain(int(argv.size() - 1), argv.data());
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(stdout);
  std::fflush(stderr);
  std::string o, e;
  bool ok = readAll(fo, o) && readAll(fe, e);
  if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0 || !ok)
    return false;
  close(fo);
  close(fe);
  std::string head = "musket-cc " + std::to_string(status) + " " + std::to_string(o.size()) + " " +
                     std::to_string(e.size()) + "\n";
  return writeAll(out, head + o + e);
}

// session runs compilations read from standard input, one after the
// other, in this process. A request is a compilation's arguments (those
// of `musket-cc ARGS...`), each followed by a NUL byte, the list ended by
// an empty argument. Each compilation runs with its standard output and
// error taken into files; the answer, on standard output, is the line
// "musket-cc STATUS N-OUT N-ERR" followed by the N-OUT bytes it wrote on
// its standard output and the N-ERR bytes of its standard error. The
// session ends at the end of the input (status 0) or when it cannot
// capture a compilation's output (status 1, no answer: the caller then
// runs the compilation as a process of its own). A compilation that
// stops the process (a crash, a fatal error) ends the session without
// an answer too. Musket (internal/cfront) gives a session only
// compilations whose arguments change no state a later compilation
// would see (no -mllvm options).
int session() {
  inSession = true;
  // The requests come on the session's own descriptor; a compilation
  // reads /dev/null as its standard input, as it does when run alone.
  int req = dup(STDIN_FILENO), out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
  int null = open("/dev/null", O_RDONLY);
  if (req < 0 || out < 0 || err < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0)
    return 1;
  close(null);
  std::string in;
  {
    char buf[65536];
    for (;;) {
      ssize_t n = read(req, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return 1;
      if (n == 0)
        break;
      in.append(buf, size_t(n));
      std::vector<std::string> args;
      while (nextRequest(in, args)) {
        if (!answer(args, out, err))
          return 1;
      }
    }
  }
  return 0;
}

} // namespace

int main(int argc, const char **argv) {
  clang::noteBottomOfStack();
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  if (llvm::sys::Process::FixupStandardFileDescriptors())
    return 1;
  int status = argc == 2 && llvm::StringRef(argv[1]) == "--musket-session" ? session()
                                                                          : driverMain(argc, argv);
  // The output is written; what is left is freeing memory and running
  // the destructors of some thousands of options, which the process's
  // end does for nothing.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  _exit(status);
}
