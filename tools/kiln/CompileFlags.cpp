//===- CompileFlags.cpp - The flags of `kiln compile` ---------------------===//
//
// Every flag, its help text and the checks CLI11 makes of its value;
// CompileCommand.cpp checks what needs more than one flag or the input.
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"

#include "codegen/cuda/CudaBackend.h"

#include <CLI/CLI.hpp>

namespace kiln {

CLI::App *addCompileCommand(CLI::App &app, CompileOptions &o) {
  CLI::App *cmd = app.add_subcommand(
      "compile", "Compile the @torch.jit.script functions of a Python file");
  // runCompile reads the file and says why it cannot, as for any file.
  cmd->add_option("file", o.input, "The Python source file")->required();
  cmd->add_option("--emit", o.emit,
                  "What to print: ast (the syntax tree), ir (kiln IR as "
                  "lowered from the source), opt (kiln IR after the -O "
                  "pipeline), dot (that IR as a Graphviz graph), llvm "
                  "(optimized LLVM IR), asm (x86-64 assembly) or ptx (the GPU "
                  "kernels' PTX for the oldest --cuda-arch, with "
                  "--target=cuda); default: ir, or nothing with -o")
      ->check(CLI::IsMember({"ast", "ir", "opt", "dot", "llvm", "asm", "ptx"}));
  cmd->add_option("-o", o.output, "Write the compiled .kiln archive here")
      ->type_name("OUT.kiln");
  cmd->add_option("-O", o.optLevel,
                  "Optimization level: -O0 (none, fastest compile) to -O3; "
                  "default -O2")
      ->check(CLI::Range(0, 3))
      ->type_name("LEVEL");
  cmd->add_option("--target-cpu", o.targetCpu,
                  "The CPUs the archive runs on: host (this machine's "
                  "features), an x86-64 level (x86-64, x86-64-v2, x86-64-v3, "
                  "x86-64-v4) or an LLVM x86-64 CPU name (znver4, "
                  "sapphirerapids, ...). A comma list stores one code object "
                  "per name and the runtime loads the best one the CPU "
                  "supports; default: host")
      ->type_name("CPU[,CPU...]");
  cmd->add_option("--conv-layout", o.convLayout,
                  "The layout -O2 computes wide f32 convolutions, and the "
                  "elementwise ops between them, in on the CPU: "
                  "channels-last (N x H x W x C, the layout oneDNN picks for "
                  "them with AVX-512), as-written (N x C x H x W), or auto, "
                  "the default: channels-last where every --target-cpu has "
                  "AVX-512 and --target has no cuda, else as-written")
      ->check(CLI::IsMember({"auto", "channels-last", "as-written"}));
  cmd->add_option("--target", o.target,
                  "Where the archive's entry points run: cpu (the default), "
                  "cuda (NVIDIA GPUs: kernels as PTX and cubins, with host "
                  "code for --target-cpu that launches them), or both, "
                  "cpu,cuda, in one archive (the runtime runs the CUDA code "
                  "unless asked for the CPU's)")
      ->type_name("cpu|cuda|cpu,cuda");
  cmd->add_option("--cuda-arch", o.cudaArchs,
                  std::string("The GPU architectures of --target=cuda: one "
                              "cubin each, and PTX for the oldest, which newer "
                              "GPUs compile when loading; default: ") +
                      kDefaultCudaArchs)
      ->type_name("sm_NN[,sm_NN...]");
  cmd->add_flag("--allow-tf32", o.allowTf32,
                "Let the GPU's f32 matmuls and convolutions (cuBLAS, cuDNN) use "
                "TF32 tensor cores, which round their inputs to a 10-bit "
                "mantissa, as torch.backends.cuda.matmul.allow_tf32 and "
                "torch.backends.cudnn.allow_tf32 do; off by default, as "
                "PyTorch's matmul; needs --target=cuda");
  cmd->add_option("--target-features", o.targetFeatures,
                  "Add (+) or remove (-) CPU features from every --target-cpu, "
                  "with what they imply, e.g. +avx2,-avx512f")
      ->type_name("+F,-F...");
  // Repeatable options take one value per occurrence, so that none
  // swallows the file that follows it (`--arg x=f32[N] model.py`).
  cmd->add_option("--arg", o.args,
                  "Shape of a tensor argument, e.g. x=f32[B,784]; overrides a "
                  "'# kiln:' comment in the script. ENTRY.NAME=... applies to "
                  "that entry point only, NAME=... to every entry with a "
                  "parameter NAME (repeatable)")
      ->type_name("[ENTRY.]NAME=DTYPE[DIMS]")
      ->allow_extra_args(false);
  cmd->add_option("--entry", o.entries,
                  "Compile this function, or this nn.Module class's forward "
                  "and @torch.jit.export methods (repeatable); default: "
                  "every @torch.jit.script function")
      ->type_name("NAME[,NAME...]")
      ->allow_extra_args(false)
      ->delimiter(',');
  CLI::Option *weights =
      cmd->add_option("--weights", o.weights,
                      "The module's trained weights, as saved from "
                      "state_dict() with safetensors")
          ->type_name("FILE.safetensors");
  // A flag whose value only follows '=', so that `--random-weights -o x`
  // and `--random-weights model.py` leave the next word alone.
  cmd->add_flag("--random-weights",
                "Instead of --weights, the weights the class's __init__ "
                "makes after torch.manual_seed(SEED) (--random-weights=SEED; "
                "0 without it), for testing")
      ->type_name("[=SEED]")
      ->check(CLI::Validator(
          [](std::string &seed) -> std::string {
            // CLI11 gives a bare flag the value "true".
            bool digits = !seed.empty() && seed.size() <= 19 &&
                          seed.find_first_not_of("0123456789") ==
                              std::string::npos;
            return digits || seed == "true"
                       ? ""
                       : "expected --random-weights=SEED, with a whole "
                         "number SEED >= 0, not '" + seed + "'";
          },
          ""))
      ->each([&o](const std::string &seed) {
        o.randomWeights = seed == "true" ? 0 : std::stoull(seed);
      })
      ->excludes(weights);
  cmd->add_option("--init-arg", o.initArgs,
                  "An argument of the --entry class's constructor: VALUE is "
                  "a Python literal, or an expression over the file's names "
                  "(norm_layer=nn.BatchNorm2d); repeatable. kiln builds the "
                  "instance by running __init__ in Python with torch")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--init-timeout", o.initTimeout,
                  "Seconds that building the --entry class in Python may "
                  "take; default 300")
      ->check(CLI::Range(1, 86400))
      ->type_name("SECONDS");
  cmd->add_option("--module-description", o.moduleDescription,
                  "Compile the nn.Module instance this file describes (as "
                  "written by kiln.describe in Python) instead of running "
                  "the class's __init__; FILE is its root class's source. "
                  "Its weights file is the default --weights")
      ->type_name("DESC.json");
  cmd->add_flag("--locations", o.locations,
                "Print source locations (file:line:col) on every op, in "
                "--emit output and in IR dumps");
  cmd->add_option("--passes", o.passes,
                  "Run this pass pipeline instead of the -O one, e.g. "
                  "'kiln-loop-unroll{unroll-factor=4},cse,kiln-fusion'")
      ->type_name("PIPELINE");
  cmd->add_flag("--print-ir-after-all", o.printIRAfterAll,
                "Print the IR after every kiln-level pass, on stderr");
  cmd->add_option("--print-ir-before", o.printIRBefore,
                  "Print the IR before each run of this pass (repeatable)")
      ->type_name("PASS")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd->add_option("--print-ir-after", o.printIRAfter,
                  "Print the IR after each run of this pass (repeatable)")
      ->type_name("PASS")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd->add_flag("--pass-timing", o.passTiming,
                "Print the time each kiln-level pass took, on stderr");
  cmd->add_option("--unroll-factor", o.unrollFactor,
                  "Copies of a loop body per iteration when a loop is "
                  "unrolled partly; default 8")
      ->check(CLI::Range(1, 1024))
      ->type_name("N");
  cmd->add_option("--unroll-max-body", o.unrollMaxBody,
                  "Largest loop body, in ops, that is unrolled; default 32")
      ->type_name("N");
  return cmd;
}

} // namespace kiln
