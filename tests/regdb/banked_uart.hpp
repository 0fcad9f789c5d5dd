#pragma once
// The 16550A register file's split and banked part (PC16550D datasheet,
// Table II): RBR for reads and THR for writes at offset 0 while LCR.DLAB =
// 0, DLL there for both while it is 1; IER and DLM at 1 the same way; IIR
// for reads and FCR for writes at 2, always. Checked by the regdb tests,
// run by the emulator's.

namespace regemu::testing_support {

inline constexpr const char* kBankedUart = R"y(device: uart
spaces:
  - {name: io, kind: mmio, size: 8, widths: [8]}
registers:
  - {name: RBR, space: io, offset: 0, width: 8, access: ro, decode: read, decode_when: "LCR.DLAB == 0"}
  - {name: THR, space: io, offset: 0, width: 8, access: wo, decode: write, decode_when: "LCR.DLAB == 0"}
  - {name: DLL, space: io, offset: 0, width: 8, decode_when: "LCR.DLAB == 1"}
  - {name: IER, space: io, offset: 1, width: 8, decode_when: "LCR.DLAB == 0"}
  - {name: DLM, space: io, offset: 1, width: 8, decode_when: "LCR.DLAB == 1"}
  - {name: IIR, space: io, offset: 2, width: 8, access: ro, reset: 0x01, decode: read}
  - {name: FCR, space: io, offset: 2, width: 8, access: wo, decode: write}
  - name: LCR
    space: io
    offset: 3
    width: 8
    fields: [{name: WLS, bits: "1:0"}, {name: DLAB, bits: 7}]
)y";

}  // namespace regemu::testing_support
