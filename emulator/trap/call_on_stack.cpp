#include "regemu/emulator/trap/call_on_stack.hpp"

// A frame-pointer frame: the CFA is rbp + 16 for the whole time the stack
// pointer is elsewhere, which is what unwinders (glibc's backtrace, gdb)
// need to come back through it.
asm(R"(
  .text
  .p2align 4
  .globl regemu_trap_call_on_stack
  .hidden regemu_trap_call_on_stack
  .type regemu_trap_call_on_stack, @function
regemu_trap_call_on_stack:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  movq %rdx, %rsp
  movq %rdi, %rax
  movq %rsi, %rdi
  callq *%rax
  movq %rbp, %rsp
  .cfi_def_cfa_register %rsp
  popq %rbp
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc
  .size regemu_trap_call_on_stack, .-regemu_trap_call_on_stack
)");
